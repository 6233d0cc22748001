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
/// main-actor state uses ``withTracking(_:willSet:)``, ``withTracking(_:didSet:)`` or
/// ``withTracking(options:delivery:_:onChange:)``: those take closures isolated to the
/// caller's actor (delivered there after the change when it happens elsewhere; see
/// ``OneShotDelivery/onActor``).
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
/// for the events `options` asks for: Apple's `withObservationTracking(options:_:onChange:)`
/// (SE-0506), with the same signature and timing.
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
/// - `.deinit` (with either, or alone): once per object read (once per class level of a
///   subclass whose properties were read: each level has its own registrar, as with
///   Apple's), when it is deallocated, on the deallocating thread; that does not end the
///   tracking of the other objects. A tracking that has ended (at its `willSet` or
///   `didSet`) hears of no deallocation, as with Apple's shipped code.
/// - Empty options install nothing.
///
/// **Where `onChange` runs.** Always synchronously, on the thread that makes the change,
/// inside it: at `willSet` the object still holds the old value, at `didSet` the new
/// one. That holds wherever the tracking is set up: `onChange` is a `@Sendable`
/// closure that runs on no actor, as SE-0506's is, so main-actor code cannot touch
/// main-actor state in it. For a callback that does, use
/// ``withTracking(options:delivery:_:onChange:)`` with ``OneShotDelivery/onActor``.
///
/// `didSet` callbacks are delivered after every derived value has heard of the change,
/// once per change (and once per ``withTransaction(_:)``). `apply` may throw (typed
/// throws) and may return a noncopyable value.
@inlinable
public func withTracking<Result: ~Copyable, Failure: Error>(
  options: TrackingOptions,
  _ apply: () throws(Failure) -> Result,
  onChange: @escaping @Sendable (TrackingEvent) -> Void
) throws(Failure) -> Result {
  // The result is moved out through an optional: the machinery returns it in a tuple,
  // which cannot hold a noncopyable value.
  var result: Result? = nil
  let store = { () throws(Failure) in result = try apply() }
  if options.isEmpty {
    _ = try AccessList.collect(store)  // nothing to install; the reads still count for an enclosing scope
  } else {
    _ = try track(store) { .make(options: options, handler: .event(onChange)) }
  }
  return result.take()!
}

/// Where the callbacks of a one-shot tracking run, for main-actor (or other actor)
/// code: the choice that ``withTracking(options:delivery:_:onChange:)`` and
/// ``withCancellableTracking(options:delivery:_:onChange:)`` take.
///
/// (SE-0506's ``withTracking(options:_:onChange:)`` has no choice: its callback runs
/// on the mutating thread, inside the change.)
public enum OneShotDelivery: Sendable, Hashable {
  /// On the callback's actor, which it inherits from the code that sets the tracking
  /// up:
  /// - a change made on that actor is delivered synchronously, inside the change, as
  ///   SE-0506's form does (at `willSet` the object still holds the old value);
  /// - a change made elsewhere is delivered on the actor as soon as it is free, after
  ///   the change: **the object may already hold the new value**, even at `willSet`,
  ///   and ``TrackingEvent/value(of:)`` returns `nil`.
  ///
  /// Either way, the events of one tracking are delivered one at a time, in the order
  /// the changes reached it: a `didSet` never before its `willSet`, and a `deinit` in
  /// its place among them. ``TrackingEvent/cancel()`` (or ``PendingTracking/cancel()``)
  /// still wins: no event is delivered after it, so cancelling at `willSet` suppresses
  /// the `didSet` even when that change has already completed on another thread. A
  /// nonisolated callback runs as with SE-0506's form.
  case onActor
}

/// Like ``withTracking(options:_:onChange:)``, with a callback isolated to the caller's
/// actor: main-actor code may update main-actor state from it.
///
/// ```swift
/// @MainActor func watch(_ model: Model) {
///   withTracking(options: .didSet, delivery: .onActor) { _ = model.count } onChange: { _ in
///     label.text = "\(model.count)"   // on the main actor, whichever thread changed it
///   }
/// }
/// ```
///
/// A change made on that actor is delivered inside the change; one made elsewhere is
/// delivered on the actor afterwards, in order, and a cancel still wins (see
/// ``OneShotDelivery/onActor``).
@inlinable
public func withTracking<Result: ~Copyable, Failure: Error>(
  options: TrackingOptions,
  delivery: OneShotDelivery,
  _ apply: () throws(Failure) -> Result,
  @_inheritActorContext onChange: @escaping @isolated(any) @Sendable (TrackingEvent) -> Void
) throws(Failure) -> Result {
  var result: Result? = nil
  _ = try trackDelivering(options: options, { () throws(Failure) in result = try apply() }, onChange)
  return result.take()!
}

/// Tracks the properties read by `apply` and calls `willSet` once, just before the
/// first of them changes, with the ``TrackingEvent`` that says which property of which
/// object it is (and its old value, while the callback runs synchronously).
///
/// `willSet` is isolated to the caller's actor: the same as
/// ``withTracking(options:delivery:_:onChange:)`` with `[.willSet]` and
/// ``OneShotDelivery/onActor``. A change made on another thread is therefore delivered
/// after it happened (the object then holds the new value); for a callback inside
/// every change, use ``withTracking(options:_:onChange:)``.
@inlinable
public func withTracking<Result: ~Copyable, Failure: Error>(
  _ apply: () throws(Failure) -> Result,
  @_inheritActorContext willSet: @escaping @isolated(any) @Sendable (TrackingEvent) -> Void
) throws(Failure) -> Result {
  try withTracking(options: .willSet, delivery: .onActor, apply, onChange: willSet)
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
/// `didSet` is isolated to the caller's actor: the same as
/// ``withTracking(options:delivery:_:onChange:)`` with `[.didSet]` and
/// ``OneShotDelivery/onActor`` (``TrackingEvent/value(of:)`` is `nil` for a change made
/// on another thread, delivered later).
@inlinable
public func withTracking<Result: ~Copyable, Failure: Error>(
  _ apply: () throws(Failure) -> Result,
  @_inheritActorContext didSet: @escaping @isolated(any) @Sendable (TrackingEvent) -> Void
) throws(Failure) -> Result {
  try withTracking(options: .didSet, delivery: .onActor, apply, onChange: didSet)
}

/// Like ``withTracking(_:onChange:)``, and also returns a ``PendingTracking`` that can
/// cancel the tracking while it is pending.
///
/// Cancelling releases `onChange` (and whatever it captures) at once. Releasing the
/// handle does *not* cancel: a one-shot tracking stays pending until it fires, exactly
/// like one installed with ``withTracking(_:onChange:)``. Like it, `onChange` is a
/// `@Sendable` closure that runs on the mutating thread; for a callback isolated to the
/// caller's actor, use ``withCancellableTracking(options:delivery:_:onChange:)``.
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

/// Like ``withTracking(options:_:onChange:)`` (`onChange` runs on the mutating thread,
/// inside the change), and also returns a ``PendingTracking`` that can cancel the
/// tracking while it is pending (releasing it does not cancel).
@inlinable
public func withCancellableTracking<T, Failure: Error>(
  options: TrackingOptions,
  _ apply: () throws(Failure) -> T,
  onChange: @escaping @Sendable (TrackingEvent) -> Void
) throws(Failure) -> (value: T, tracking: PendingTracking) {
  guard !options.isEmpty else {
    // Nothing to install; the reads still count for an enclosing scope.
    return (try AccessList.collect(apply).0, PendingTracking(nil))
  }
  let (value, observer) = try track(apply) { .make(options: options, handler: .event(onChange)) }
  return (value, PendingTracking(observer))
}

/// Like ``withTracking(options:delivery:_:onChange:)`` (`onChange` runs on the caller's
/// actor), and also returns a ``PendingTracking`` that can cancel the tracking while it
/// is pending, or while its events wait for the actor (releasing it does not cancel).
@inlinable
public func withCancellableTracking<T, Failure: Error>(
  options: TrackingOptions,
  delivery: OneShotDelivery,
  _ apply: () throws(Failure) -> T,
  @_inheritActorContext onChange: @escaping @isolated(any) @Sendable (TrackingEvent) -> Void
) throws(Failure) -> (value: T, tracking: PendingTracking) {
  try trackDelivering(options: options, apply, onChange)
}

/// The one-shot tracking of the `delivery:` forms: a nonisolated `onChange` is called
/// on the mutating thread, an isolated one through an ``ActorHandOff``.
@usableFromInline
package func trackDelivering<T, Failure: Error>(
  options: TrackingOptions,
  _ apply: () throws(Failure) -> T,
  _ onChange: @escaping @isolated(any) @Sendable (TrackingEvent) -> Void
) throws(Failure) -> (value: T, tracking: PendingTracking) {
  guard !options.isEmpty else {
    return (try AccessList.collect(apply).0, PendingTracking(nil))
  }
  var handOff: ActorHandOff?
  let (value, observer) = try track(apply) {
    guard let actor = onChange.isolation else {
      return .make(options: options, handler: .event(nonisolatedView(of: onChange)))
    }
    let made = ActorHandOff(actor: actor, onChange)
    handOff = made
    return .make(options: options, handler: .event(made.deliver))
  }
  return (value, PendingTracking(observer, handOff: handOff))
}

/// Runs `body` so that its reads are not recorded by any enclosing tracking scope.
///
/// Useful inside `apply` for reads that should not cause a re-run, such as logging.
public func withoutTracking<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
  try AccessList.withoutTracking(body)
}

/// Whether the calling thread is currently inside a tracking scope.
public var isInsideTracking: Bool { CurrentScope.isTracking }
