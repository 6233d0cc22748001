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
/// there is demand; values offered meanwhile replace the buffered one.
///
/// Invariant: a `.didSet` subscriber's values come in the order of the runs that read
/// them, so the last value it gets is the latest run's. Runs happen one at a time, but
/// each thread offers its run's value after the run has ended, so a thread whose run
/// read older values may offer after a thread whose run read newer ones: each run takes
/// a number, and a value is offered only if no later run's value was offered before it
/// (`State.offeredRun`). Without this, a subscriber could keep an old value after
/// writes on two threads, although the latest run read the new one.
///
/// `@unchecked Sendable`: its mutable state is behind `state`'s lock, or touched only
/// inside the reaction's runs (`runCount`); the rest is immutable after `init`.
final class TrackingSubscription<Output, Downstream: Subscriber>:
  Subscription, TrackingEvents, @unchecked Sendable
where Downstream.Input == Output, Downstream.Failure == Never {
  private struct State {
    var downstream: Downstream?
    var demand = Subscribers.Demand.none
    var buffered: Output?
    var isDelivering = false
    /// The number of the run whose value was offered last (see the type's invariant).
    var offeredRun: UInt64 = 0
  }

  private let timing: TrackedChangeTiming
  private let read: @Sendable () -> Output?
  private let state: Locked<State>
  /// Written once, in `init`, before the subscription is shared.
  @exclusivity(unchecked) private var reaction: Reaction!
  /// How many runs there were. Only touched inside the reaction's runs, which happen
  /// one at a time (each one's start follows the previous one's end under the
  /// reaction's lock).
  @exclusivity(unchecked) private var runCount: UInt64 = 0

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
  /// returns `nil`), or the subscription was cancelled or the source is gone. Returns
  /// the value with the run's number.
  private func retrack(always: Bool) -> (value: Output, run: UInt64)? {
    guard isActive else { return nil }
    // Reads of a run are its own scope's, whatever scope is active on the mutating
    // thread (the change may happen inside someone's `apply`).
    var value: Output?
    var run: UInt64 = 0
    reaction.run(ifNeeded: !always) {
      value = read()
      runCount += 1
      run = runCount
    }
    return value.map { ($0, run) }
  }

  func heardChange() {
    let result = retrack(always: false)
    if timing == .didSet, let result { offer(result.value, run: result.run) }
  }

  func heardWillSet() {
    guard isActive, let value = withoutTracking(read) else { return }
    offer(value, run: nil)
  }

  private var isActive: Bool { state.withLock { $0.downstream != nil } }

  // MARK: Delivery

  /// Buffers `value` and drains, unless a later run's value was offered already. `run`
  /// is the number of the run that read `value`; `nil` for a will-set's value, read
  /// outside any run (a `.willSet` subscriber's values are never numbered).
  private func offer(_ value: Output, run: UInt64?) {
    let shouldDrain = state.withLock { state -> Bool in
      guard state.downstream != nil else { return false }
      if let run {
        guard run > state.offeredRun else { return false }
        state.offeredRun = run
      }
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
      // Outside every tracking scope: the change that is delivered may have been made
      // inside another closure whose reads are being collected, and what the
      // subscriber reads is not that closure's.
      let more = withoutTracking { downstream.receive(value) }
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
