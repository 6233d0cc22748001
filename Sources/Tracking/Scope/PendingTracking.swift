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
  // Unchecked: an observer is safe to share across threads (see TrackingObserver).
  let observer: TrackingObserver?

  @usableFromInline
  init(_ observer: TrackingObserver?) {
    self.observer = observer
  }

  /// Cancels the tracking if it is still pending: its callback will not run and is
  /// released now. Cancelling a fired or cancelled tracking does nothing.
  public func cancel() {
    observer?.cancel()
  }

  /// Whether the tracking can still fire. A scope that read no tracked property
  /// installed nothing and is never pending.
  public var isPending: Bool {
    observer?.mayStillRun ?? false
  }

  /// Equal when both refer to the same tracking (or neither refers to any).
  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.observer === rhs.observer }

  /// Hashes the identity of the tracking referred to.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(observer.map(ObjectIdentifier.init))
  }
}
