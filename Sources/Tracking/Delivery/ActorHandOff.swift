/// Hands the events of one one-shot tracking to its callback's actor, one at a time, in
/// the order they reached the tracking: the delivery of ``OneShotDelivery/onActor``.
///
/// A change can happen on any thread; the callback must run on its actor. Scheduling
/// each event as a task of its own (what ``Isolation`` does for a single call) would
/// let a `didSet` overtake its `willSet`, and would deliver a `didSet` that a cancel
/// at `willSet` should have suppressed (the change completed on its thread long
/// before the `willSet` callback ran). So every event goes through this queue.
///
/// **Invariants** (the state is guarded by one lock):
/// - Events run in queue order, one at a time: there is at most one drainer, and it
///   runs on the actor (a scheduled run, or the mutating thread when that is on the
///   actor).
/// - A change made on the actor with nothing queued ahead of it runs its event inside
///   the change, as a nonisolated callback would. One made there while events wait
///   first runs those, then its own. One made elsewhere is queued, and at most one run
///   is scheduled on the actor (through ``Isolation/schedule(on:_:)``).
/// - An event raised by a callback (a write it makes) is queued and runs after that
///   callback returns.
/// - Once cancelled, nothing more runs: ``cancel()`` empties the queue and a change
///   arriving later is dropped. Delivered events carry this hand-off as their
///   canceller, so ``TrackingEvent/cancel()`` in a callback also stops the events
///   already queued behind it.
///
/// Lock order: only this hand-off's lock is held, never while calling the callback or
/// cancelling the observer.
@usableFromInline
final class ActorHandOff: @unchecked Sendable, TrackingCancellable {
  // Unchecked: the mutable state is behind `state`'s lock; `actor` and `body` are
  // immutable; `body` is only called on `actor` (see `drain`).

  private struct State {
    var queue: [TrackingEvent] = []
    /// A drainer is running on the actor.
    var draining = false
    /// A run is scheduled on the actor and has not started.
    var scheduled = false
    var cancelled = false
    /// The observer the events come from, cancelled with the hand-off. Weak: the
    /// observer holds this hand-off through its callback.
    weak var upstream: (any TrackingCancellable)?
  }

  private let state = Locked(State())
  private let actor: any Actor
  /// The callback seen as nonisolated: called only on `actor` (`callOnItsActor`'s rule).
  private let body: @Sendable (TrackingEvent) -> Void

  @usableFromInline
  init(actor: any Actor, _ body: @escaping @isolated(any) @Sendable (TrackingEvent) -> Void) {
    self.actor = actor
    self.body = nonisolatedView(of: body)
  }

  /// Called by the observer with each event, on the thread that raised it.
  @usableFromInline
  func deliver(_ event: TrackingEvent) {
    let onActor = Isolation.isCurrent(actor)
    let next = state.withLock { state -> Next in
      guard !state.cancelled else { return .nothing }
      if state.upstream == nil { state.upstream = event.canceller.value }
      state.queue.append(event)
      if state.draining { return .nothing }  // the drainer runs it in turn
      if onActor {
        state.draining = true
        return .drainHere
      }
      if state.scheduled { return .nothing }
      state.scheduled = true
      return .schedule
    }
    switch next {
    case .drainHere: drain()
    case .schedule: Isolation.schedule(on: actor) { _ in self.runScheduled() }
    case .nothing: break
    }
  }

  private enum Next { case nothing, drainHere, schedule }

  /// The scheduled run, on the actor. A change made on the actor meanwhile may have
  /// drained the queue already.
  private func runScheduled() {
    let drains = state.withLock { state -> Bool in
      state.scheduled = false
      guard !state.draining, !state.cancelled, !state.queue.isEmpty else { return false }
      state.draining = true
      return true
    }
    if drains { drain() }
  }

  /// Runs the queued events in order, on the actor, until the queue is empty or the
  /// hand-off is cancelled. The caller has set `draining`.
  private func drain() {
    while true {
      let event = state.withLock { state -> TrackingEvent? in
        guard !state.cancelled, !state.queue.isEmpty else {
          state.draining = false
          return nil
        }
        return state.queue.removeFirst()
      }
      guard let event else { return }
      body(TrackingEvent(kind: event.kind, source: event.source, canceller: self))
    }
  }

  /// Whether events wait for the actor.
  var hasQueuedEvents: Bool {
    state.withLock { !$0.cancelled && !$0.queue.isEmpty }
  }

  /// Stops the delivery (queued events are dropped, later ones too) and cancels the
  /// observer. Returns whether it was still running.
  @discardableResult
  func cancel() -> Bool {
    let (wasRunning, dropped, upstream) = state.withLock { state in
      defer {
        state.cancelled = true
        state.queue = []
      }
      return (!state.cancelled, state.queue, state.upstream)
    }
    _ = dropped  // released here, outside the lock
    upstream?.cancel()
    return wasRunning
  }
}
