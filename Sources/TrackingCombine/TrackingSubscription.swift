#if canImport(Combine) || OpenCombine
#if canImport(Combine)
  import Combine
#else
  import OpenCombine
#endif
import Tracking

/// One subscriber's tracking of a ``TrackingPublisher``.
///
/// Every change re-installs the tracking (a one-shot observer per change, as
/// `observe` does), and offers a value. Delivery is serialized: one thread at a time
/// drains the one-element buffer while there is demand; values offered meanwhile
/// replace the buffered one. `@unchecked Sendable`: its mutable state is behind
/// `state`'s lock; the rest is immutable.
final class TrackingSubscription<Output, Downstream: Subscriber>:
  Subscription, TrackingEvents, @unchecked Sendable
where Downstream.Input == Output, Downstream.Failure == Never {
  private struct State {
    var downstream: Downstream?
    var demand = Subscribers.Demand.none
    var buffered: Output?
    var isDelivering = false
    var observer: TrackingObserver?
  }

  private let timing: TrackedChangeTiming
  private let read: @Sendable () -> Output?
  private let state: Locked<State>

  init(timing: TrackedChangeTiming, read: @escaping @Sendable () -> Output?, downstream: Downstream) {
    self.timing = timing
    self.read = read
    self.state = Locked(State(downstream: downstream))
  }

  /// Installs the first tracking; emits nothing.
  func start() {
    _ = retrack()
  }

  // MARK: Tracking

  /// Runs the closure tracked and records the new observer. Returns the value read, or
  /// `nil` if the subscription was cancelled or the source is gone.
  private func retrack() -> Output? {
    guard isActive else { return nil }
    let result = withoutTracking {
      // `withoutTracking` keeps these reads out of any scope that is active on the
      // mutating thread (the mutation may happen inside someone's `apply`).
      track(read) {
        let (willSet, didSet) = handlers
        return .make(kind: timing == .didSet ? .didSetOnce : .willSetThenDidSet, willSet: willSet, didSet: didSet)
      }
    }
    let stillActive = state.withLock { state -> Bool in
      guard state.downstream != nil else { return false }
      state.observer = result.observer
      return true
    }
    guard stillActive else {
      result.observer?.cancel()
      return nil
    }
    return result.value
  }

  /// The callbacks of one tracking. They hold the subscription weakly: the subscriber
  /// owns it, and a pending tracking must not keep it alive.
  /// (They see the subscription through a non-generic protocol, so they capture no
  /// generic metadata.)
  private var handlers: (TrackingObserver.Handler?, TrackingObserver.Handler?) {
    let events: any TrackingEvents = self
    switch timing {
    case .didSet:
      return (nil, .plain { [weak events] in events?.heardDidSet() })
    case .willSet:
      return (
        .plain { [weak events] in events?.heardWillSet() },
        .plain { [weak events] in events?.heardDidSetSilently() }
      )
    }
  }

  func heardDidSet() {
    if let value = retrack() { offer(value) }
  }

  func heardDidSetSilently() {
    _ = retrack()
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
    let observer = state.withLock { state -> TrackingObserver? in
      defer { state = State() }
      return state.observer
    }
    observer?.cancel()
  }
}

/// What a subscription's trackings call when a change happens.
protocol TrackingEvents: AnyObject, Sendable {
  /// `willSet` of a `.willSet` publisher: emit the value about to be replaced.
  func heardWillSet()
  /// `didSet` of a `.didSet` publisher: re-track and emit the new value.
  func heardDidSet()
  /// `didSet` of a `.willSet` publisher: re-track only.
  func heardDidSetSilently()
}
#endif
