/// A handle on one pending tracking, returned by ``withCancellableTracking(_:onChange:)``.
///
/// Tokens are cheap values: copies refer to the same tracking, and two tokens are
/// equal when they do.
public struct TrackingToken: @unchecked Sendable, Hashable {
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
    observer?.isPending ?? false
  }

  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.observer === rhs.observer }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(observer.map(ObjectIdentifier.init))
  }
}
