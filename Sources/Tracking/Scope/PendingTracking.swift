/// A handle on one pending one-shot tracking, returned by
/// ``withCancellableTracking(_:onChange:)``: it can cancel the tracking, and tell
/// whether it is still pending. **Releasing it does not cancel**: the tracking stays
/// pending until it fires, like one installed with ``withTracking(_:onChange:)``.
///
/// (For continuous observation, whose handle cancels when released, see
/// ``TrackingToken``.)
///
/// Handles are cheap values: copies refer to the same tracking, and two handles are
/// equal when they do.
public struct PendingTracking: @unchecked Sendable, Hashable {
  // Unchecked: an observer is safe to share across threads (see TrackingObserver), and
  // so is a hand-off (see ActorHandOff).
  let observer: TrackingObserver?
  /// Where the events wait for the callback's actor (``OneShotDelivery/onActor``), if
  /// they do.
  let handOff: ActorHandOff?

  @usableFromInline
  init(_ observer: TrackingObserver?, handOff: ActorHandOff? = nil) {
    self.observer = observer
    self.handOff = handOff
  }

  /// Cancels the tracking if it is still pending: its callback will not run and is
  /// released now. Events already waiting for the callback's actor are not delivered
  /// either. Cancelling a fired or cancelled tracking does nothing.
  public func cancel() {
    observer?.cancel()
    handOff?.cancel()
  }

  /// Whether the tracking can still fire (or has events waiting for its callback's
  /// actor). A scope that read no tracked property installed nothing and is never
  /// pending.
  public var isPending: Bool {
    (observer?.mayStillRun ?? false) || (handOff?.hasQueuedEvents ?? false)
  }

  /// Equal when both refer to the same tracking (or neither refers to any).
  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.observer === rhs.observer }

  /// Hashes the identity of the tracking referred to.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(observer.map(ObjectIdentifier.init))
  }
}
