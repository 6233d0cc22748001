#if canImport(Combine) || OpenCombine
#if canImport(Combine)
  import Combine
#else
  import OpenCombine
#endif
import Tracking

/// One subscriber's tracking of a ``TrackingPublisher``: a reaction of the reactive
/// graph whose runs read the value, started by this subscription.
///
/// `.didSet` timing: at the end of each change (or transaction) that changed what the
/// closure read, it is run again (keeping its observer while it reads the same
/// properties) and its value offered. `.willSet` timing: at each will-set, the value
/// about to be replaced is offered; at the end of the change, the closure is run again,
/// silently, to track what it reads now.
///
/// Delivery is serialized: one thread at a time drains the one-element buffer while
/// there is demand; values offered meanwhile replace the buffered one. `@unchecked
/// Sendable`: its mutable state is behind `state`'s lock; the rest is immutable after
/// `init`.
final class TrackingSubscription<Output, Downstream: Subscriber>:
  Subscription, TrackingEvents, @unchecked Sendable
where Downstream.Input == Output, Downstream.Failure == Never {
  private struct State {
    var downstream: Downstream?
    var demand = Subscribers.Demand.none
    var buffered: Output?
    var isDelivering = false
  }

  private let timing: TrackedChangeTiming
  private let read: @Sendable () -> Output?
  private let state: Locked<State>
  /// Written once, in `init`, before the subscription is shared.
  @exclusivity(unchecked) private var reaction: Reaction!

  init(timing: TrackedChangeTiming, read: @escaping @Sendable () -> Output?, downstream: Downstream) {
    self.timing = timing
    self.read = read
    self.state = Locked(State(downstream: downstream))
    // The reaction sees the subscription through a non-generic protocol, weakly: the
    // subscriber owns the subscription, and a pending tracking must not keep it alive.
    let events: any TrackingEvents = self
    switch timing {
    case .didSet:
      reaction = Reaction(options: .didSet) { [weak events] in events?.heardChange() }
    case .willSet:
      reaction = Reaction(
        options: [.willSet, .didSet], willChange: { [weak events] in events?.heardWillSet() },
        needsRun: { [weak events] in events?.heardChange() })
    }
  }

  /// Makes the first run; emits nothing.
  func start() {
    _ = retrack(always: true)
  }

  // MARK: Tracking

  /// Runs the closure as the reaction's run, unless no change asks for one (then
  /// returns `nil`), or the subscription was cancelled or the source is gone.
  private func retrack(always: Bool) -> Output? {
    guard isActive else { return nil }
    // Reads of a run are its own scope's, whatever scope is active on the mutating
    // thread (the change may happen inside someone's `apply`).
    var value: Output?
    reaction.run(ifNeeded: !always) { value = read() }
    return value
  }

  func heardChange() {
    let value = retrack(always: false)
    if timing == .didSet, let value { offer(value) }
  }

  func heardWillSet() {
    guard isActive, let value = withoutTracking(read) else { return }
    offer(value)
  }

  private var isActive: Bool { state.withLock { $0.downstream != nil } }

  // MARK: Delivery

  private func offer(_ value: Output) {
    let shouldDrain = state.withLock { state -> Bool in
      guard state.downstream != nil else { return false }
      state.buffered = value
      guard !state.isDelivering else { return false }
      state.isDelivering = true
      return true
    }
    if shouldDrain { drain() }
  }

  /// Delivers buffered values while there is demand. Only one caller drains at a time.
  private func drain() {
    while true {
      let next = state.withLock { state -> (Downstream, Output)? in
        guard let downstream = state.downstream, state.demand > 0, let value = state.buffered else {
          state.isDelivering = false
          return nil
        }
        state.buffered = nil
        state.demand -= 1
        return (downstream, value)
      }
      guard let (downstream, value) = next else { return }
      let more = downstream.receive(value)
      state.withLock { $0.demand += more }
    }
  }

  // MARK: Subscription

  func request(_ demand: Subscribers.Demand) {
    precondition(demand > 0, "A subscriber must request a positive demand")
    let shouldDrain = state.withLock { state -> Bool in
      guard state.downstream != nil else { return false }
      state.demand += demand
      guard !state.isDelivering, state.buffered != nil else { return false }
      state.isDelivering = true
      return true
    }
    if shouldDrain { drain() }
  }

  func cancel() {
    state.withLock { $0 = State() }
    reaction.cancel()
  }
}

/// What a subscription's reaction calls when a change happens.
protocol TrackingEvents: AnyObject, Sendable {
  /// A will-set of a `.willSet` publisher: emit the value about to be replaced.
  func heardWillSet()
  /// The end of a change: run again (and, for a `.didSet` publisher, emit the value).
  func heardChange()
}
#endif
