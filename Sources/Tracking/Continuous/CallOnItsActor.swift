
/// Calls an `@isolated(any)` synchronous closure from code that is already running
/// on the closure's actor, without a suspension point.
///
/// Tracking scopes are thread-local, so the closure has to run on the very thread
/// that opened the scope; an `await` could move it elsewhere. The language has no
/// spelling for "call this isolated closure synchronously, I am on its actor", so
/// this reinterprets the closure as a plain one, which has the same representation,
/// after checking that the caller really is on the closure's actor (`checked`; callers
/// that hold the actor as an `isolated` parameter and compared it pass `false`).
@inlinable @inline(__always)
func callOnItsActor<T, Failure: Error>(
  _ body: @escaping @isolated(any) @Sendable () throws(Failure) -> T, checked: Bool = true
) throws(Failure) -> T {
  if checked { body.isolation?.preconditionIsolated("a tracked closure was called away from its actor") }
  typealias Plain = @Sendable () throws(Failure) -> T
  let plain = unsafeBitCast(body, to: Plain.self)
  return try plain()
}

/// Runs `body` isolated to `actor` (or on the generic executor for `nil`) inside a
/// tracking scope, and installs an observer with the given callbacks on what it read.
func trackIsolated<T, Failure: Error>(
  isolation actor: isolated (any Actor)?,
  _ body: @escaping @isolated(any) @Sendable () throws(Failure) -> T,
  kind: TrackingObserver.Kind,
  willSet: TrackingObserver.Handler?,
  didSet: TrackingObserver.Handler?
) throws(Failure) -> (value: T, observer: TrackingObserver?) {
  try track({ () throws(Failure) -> T in try callOnItsActor(body) }, kind: kind) { (willSet, didSet) }
}
