/// Tracks the tracked properties read by `apply` and calls `onChange` once, just
/// before the first of them changes.
///
/// This is the equivalent of Apple's `withObservationTracking(_:onChange:)`, with the
/// same semantics:
/// - `onChange` runs at most once, on the thread that makes the change, during the
///   property's `willSet`: the object still holds the old value.
/// - Later changes do nothing; track again to hear about them.
/// - Reads inside a nested tracking scope are tracked by the enclosing scope too.
/// - Changes made inside `apply` itself do not fire this tracking (it is installed
///   when `apply` returns).
/// - A pending tracking does not keep the objects it watches alive.
/// - If `apply` reads no tracked property, nothing is installed and `onChange` is
///   never evaluated.
///
/// Unlike Apple's, `apply` may throw; a throwing `apply` installs nothing.
///
/// ```swift
/// let total = withTracking {
///   cart.items.reduce(0) { $0 + $1.price }
/// } onChange: {
///   print("cart is about to change")
/// }
/// ```
///
/// - Returns: The value `apply` returns.
@inlinable
public func withTracking<T, Failure: Error>(
  _ apply: () throws(Failure) -> T,
  onChange: @autoclosure () -> @Sendable () -> Void
) throws(Failure) -> T {
  try track(apply, kind: .willSetOnce) { (.plain(onChange()), nil) }.value
}

/// Like ``withTracking(_:onChange:)``, but the callback learns what is about to
/// change, and can read the old value from it.
@inlinable
public func withTracking<T, Failure: Error>(
  _ apply: () throws(Failure) -> T,
  willChange: @escaping @Sendable (TrackedChange) -> Void
) throws(Failure) -> T {
  try track(apply, kind: .willSetOnce) { (.change(willChange), nil) }.value
}

/// Tracks the properties read by `apply` and calls `didChange` once, just *after*
/// the first of them changed, on the mutating thread.
///
/// Apple's public API only reports changes before they happen, so code that wants the
/// new value has to defer work to a later turn. Here the object already holds the new
/// value when `didChange` runs, and the ``TrackedChange`` says which property it was:
///
/// ```swift
/// withTracking { _ = model.count } didChange: { change in
///   print("count is now", change.value(of: \Model.count)!)
/// }
/// ```
@inlinable
public func withTracking<T, Failure: Error>(
  _ apply: () throws(Failure) -> T,
  didChange: @escaping @Sendable (TrackedChange) -> Void
) throws(Failure) -> T {
  try track(apply, kind: .didSetOnce) { (nil, .change(didChange)) }.value
}

/// Like ``withTracking(_:onChange:)``, and also returns a token that cancels the
/// tracking while it is pending.
///
/// Cancelling releases `onChange` (and whatever it captures) at once.
/// Dropping the token does *not* cancel: a one-shot tracking stays pending until it
/// fires, exactly like one installed with ``withTracking(_:onChange:)``.
@inlinable
public func withCancellableTracking<T, Failure: Error>(
  _ apply: () throws(Failure) -> T,
  onChange: @escaping @Sendable () -> Void
) throws(Failure) -> (value: T, token: TrackingToken) {
  let (value, observer) = try track(apply, kind: .willSetOnce) { (.plain(onChange), nil) }
  return (value, TrackingToken(observer))
}

/// Like ``withTracking(_:didChange:)``, and also returns a token that cancels the
/// tracking while it is pending.
@inlinable
public func withCancellableTracking<T, Failure: Error>(
  _ apply: () throws(Failure) -> T,
  didChange: @escaping @Sendable (TrackedChange) -> Void
) throws(Failure) -> (value: T, token: TrackingToken) {
  let (value, observer) = try track(apply, kind: .didSetOnce) { (nil, .change(didChange)) }
  return (value, TrackingToken(observer))
}

/// Runs `body` so that its reads are not recorded by any enclosing tracking scope.
///
/// Useful inside `apply` for reads that should not cause a re-run, such as logging.
public func withoutTracking<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
  try AccessList.withoutTracking(body)
}

/// Whether the calling thread is currently inside a tracking scope.
public var isInsideTracking: Bool { CurrentScope.isTracking }

/// The shared implementation: collect the reads of `apply`, then install one observer
/// on every registrar that was read. Continuous observation builds on this.
///
/// It and the public entry points are inlinable so that they are specialized for the
/// caller's result type: unspecialized, every scope paid for metadata-driven copies
/// and witness calls (about a sixth of a track + fire cycle).
@inlinable
package func track<T, Failure: Error>(
  _ apply: () throws(Failure) -> T,
  kind: TrackingObserver.Kind,
  handlers: () -> (TrackingObserver.Handler?, TrackingObserver.Handler?)
) throws(Failure) -> (value: T, observer: TrackingObserver?) {
  if _slowPath(TrackingInterop.observesAppleObservables) {
    return try TrackingInterop.trackIncludingApple(apply, kind: kind, handlers: handlers)
  }
  return try trackOwnObjects(apply, kind: kind, handlers: handlers)
}

/// `track` without Apple's objects: the common path.
@inlinable
func trackOwnObjects<T, Failure: Error>(
  _ apply: () throws(Failure) -> T,
  kind: TrackingObserver.Kind,
  handlers: () -> (TrackingObserver.Handler?, TrackingObserver.Handler?)
) throws(Failure) -> (value: T, observer: TrackingObserver?) {
  let (value, list) = try AccessList.collect(apply)
  guard !list.isEmpty else { return (value, nil) }
  let (willSet, didSet) = handlers()
  let observer = TrackingObserver.make(kind: kind, willSet: willSet, didSet: didSet)
  list.install(observer)
  return (value, observer)
}
