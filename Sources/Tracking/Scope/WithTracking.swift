/// Tracks the tracked properties read by `apply` and calls `onChange` once, just
/// before the first of them changes.
///
/// This is the equivalent of Apple's `withObservationTracking(_:onChange:)`, with the
/// same semantics:
/// - `onChange` runs at most once, during the property's `willSet`: the object still
///   holds the old value. Later changes do nothing; track again to hear about them.
/// - Reads inside a nested tracking scope are tracked by the enclosing scope too.
/// - Changes made inside `apply` itself do not fire this tracking.
/// - A pending tracking does not keep the objects it watches alive.
/// - If `apply` reads no tracked property, nothing is installed and `onChange` never runs.
///
/// Beyond Apple's:
/// - A change made by *another* thread while `apply` runs is not lost: it is noticed
///   when the tracking is installed, and `onChange` runs right away.
/// - `apply` may throw (typed throws); a throwing `apply` installs nothing.
///
/// `onChange` keeps Apple's signature: a `@Sendable` closure that runs on the mutating
/// thread, at no cost beyond Apple's semantics. Main-actor code whose callback touches
/// main-actor state uses ``withTracking(_:willSet:)`` (the same timing, with an event)
/// or ``withTracking(_:didSet:)``: those take closures isolated to the caller's actor.
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
  try track(apply) { .make(kind: .willSetOnce, willSet: .plain(onChange()), didSet: nil) }.value
}

/// Tracks the properties read by `apply` and calls `onChange` with a ``TrackingEvent``
/// for the events `options` asks for: the equivalent of Apple's
/// `withObservationTracking(options:_:onChange:)` (SE-0506).
///
/// ```swift
/// withTracking(options: [.willSet, .didSet]) { _ = model.count } onChange: { event in
///   print(event.kind)   // .willSet, then .didSet, for the first change
/// }
/// ```
///
/// - `[.willSet]`: once, before the first change; then the tracking ends.
/// - `[.didSet]`: once, after the first change (the object holds the new value).
/// - `[.willSet, .didSet]`: `willSet`, then `didSet`, for the first change; calling
///   ``TrackingEvent/cancel()`` at `willSet` suppresses the `didSet`.
/// - `.deinit` (with either, or alone): once per object read, when it is deallocated,
///   on the deallocating thread; that does not end the tracking of the other objects.
/// - Empty options install nothing.
///
/// `didSet` callbacks are delivered after every derived value has heard of the change,
/// once per change (and once per ``withTransaction(_:)``). Threads and actors: as
/// ``withTracking(_:onChange:)``.
@inlinable
public func withTracking<T, Failure: Error>(
  options: TrackingOptions,
  _ apply: () throws(Failure) -> T,
  @_inheritActorContext onChange: @escaping @isolated(any) @Sendable (TrackingEvent) -> Void
) throws(Failure) -> T {
  try withCancellableTracking(options: options, apply, onChange: onChange).value
}

/// Tracks the properties read by `apply` and calls `willSet` once, just before the
/// first of them changes, with the ``TrackingEvent`` that says which property of which
/// object it is (and its old value, while the callback runs).
///
/// The same as ``withTracking(options:_:onChange:)`` with `[.willSet]`.
@inlinable
public func withTracking<T, Failure: Error>(
  _ apply: () throws(Failure) -> T,
  @_inheritActorContext willSet: @escaping @isolated(any) @Sendable (TrackingEvent) -> Void
) throws(Failure) -> T {
  try withTracking(options: .willSet, apply, onChange: willSet)
}

/// Tracks the properties read by `apply` and calls `didSet` once, just *after* the
/// first of them changed.
///
/// Apple's classic API only reports changes before they happen, so code that wants the
/// new value has to defer work to a later turn. Here the object already holds the new
/// value when `didSet` runs, and the ``TrackingEvent`` says which property it was:
///
/// ```swift
/// withTracking { _ = model.count } didSet: { event in
///   print("count is now", event.value(of: \Model.count)!)
/// }
/// ```
///
/// The same as ``withTracking(options:_:onChange:)`` with `[.didSet]`.
@inlinable
public func withTracking<T, Failure: Error>(
  _ apply: () throws(Failure) -> T,
  @_inheritActorContext didSet: @escaping @isolated(any) @Sendable (TrackingEvent) -> Void
) throws(Failure) -> T {
  try withTracking(options: .didSet, apply, onChange: didSet)
}

/// Like ``withTracking(_:onChange:)``, and also returns a ``PendingTracking`` that can
/// cancel the tracking while it is pending.
///
/// Cancelling releases `onChange` (and whatever it captures) at once. Releasing the
/// handle does *not* cancel: a one-shot tracking stays pending until it fires, exactly
/// like one installed with ``withTracking(_:onChange:)``. Like it, `onChange` is a
/// `@Sendable` closure that runs on the mutating thread; for a callback isolated to the
/// caller's actor, use ``withCancellableTracking(options:_:onChange:)``.
@inlinable
public func withCancellableTracking<T, Failure: Error>(
  _ apply: () throws(Failure) -> T,
  onChange: @escaping @Sendable () -> Void
) throws(Failure) -> (value: T, tracking: PendingTracking) {
  let (value, observer) = try track(apply) {
    .make(kind: .willSetOnce, willSet: .plain(onChange), didSet: nil)
  }
  return (value, PendingTracking(observer))
}

/// Like ``withTracking(options:_:onChange:)``, and also returns a ``PendingTracking``
/// that can cancel the tracking while it is pending (releasing it does not cancel).
@inlinable
public func withCancellableTracking<T, Failure: Error>(
  options: TrackingOptions,
  _ apply: () throws(Failure) -> T,
  @_inheritActorContext onChange: @escaping @isolated(any) @Sendable (TrackingEvent) -> Void
) throws(Failure) -> (value: T, tracking: PendingTracking) {
  guard !options.isEmpty else {
    // Nothing to install; the reads still count for an enclosing scope.
    return (try AccessList.collect(apply).0, PendingTracking(nil))
  }
  let (value, observer) = try track(apply) { .make(options: options, handler: .callback(onChange)) }
  return (value, PendingTracking(observer))
}

/// Runs `body` so that its reads are not recorded by any enclosing tracking scope.
///
/// Useful inside `apply` for reads that should not cause a re-run, such as logging.
public func withoutTracking<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
  try AccessList.withoutTracking(body)
}

/// Whether the calling thread is currently inside a tracking scope.
public var isInsideTracking: Bool { CurrentScope.isTracking }

extension TrackingObserver.Handler {
  /// A handler that passes the event to `body` on its isolation (see ``Isolation``).
  @inlinable
  package static func callback(_ body: @escaping @isolated(any) @Sendable (TrackingEvent) -> Void) -> Self {
    if body.isolation == nil {
      typealias Plain = @Sendable (TrackingEvent) -> Void
      return .event(unsafeBitCast(body, to: Plain.self))  // same representation, no actor
    }
    return .event { event in Isolation.callOrSchedule(body, event) }
  }
}
