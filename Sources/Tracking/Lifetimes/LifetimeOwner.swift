import CTrackingSupport

/// Something that owns what code starts while it is *current*: a reaction during each
/// of its runs, or a ``TrackingScope`` during its ``TrackingScope/run(_:)``.
///
/// Whatever starts a continuous observation, a ``Derived``, a ``TrackedValues``
/// iteration, a nested scope or registers a cleanup (``onCleanup(_:)``) asks for the
/// current owner and hands it the work that ends it. The owner does that work when it
/// ends: a reaction before its next run and when it is cancelled, a scope when it is
/// cancelled or released. So nothing started inside an owner outlives it.
///
/// **The slot.** The current owner is one thread-local pointer (a C `_Thread_local`,
/// like the tracking scope's slot), holding an owner unretained for exactly the
/// duration of ``makeCurrent(_:)``, which restores the previous value on the way out.
/// The caller of `makeCurrent` keeps the owner alive meanwhile, so a non-`nil` slot is
/// always a live owner of this thread's current work.
@usableFromInline
package class LifetimeOwner: @unchecked Sendable {
  // `@unchecked Sendable`: the subclasses guard their state (see each).

  /// Takes `owned`, to end when this owner ends (the run under way, or the scope).
  /// Called on the thread where this owner is current.
  func own(_ owned: Owned) {
    preconditionFailure("\(type(of: self)) is never made current")
  }

  /// The owner current on this thread, if any.
  static var current: LifetimeOwner? {
    guard let raw = tracking_current_owner() else { return nil }
    return Unmanaged<LifetimeOwner>.fromOpaque(raw).takeUnretainedValue()
  }

  /// Runs `body` with this owner current, then restores the previous one.
  @inline(__always)
  final func makeCurrent<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
    let previous = tracking_current_owner()
    tracking_set_current_owner(Unmanaged.passUnretained(self).toOpaque())
    defer { tracking_set_current_owner(previous) }
    return try body()
  }

  /// Does the work of ended owned things: the latest first, as `defer` does, so that
  /// what was started last (and may use what was started before it) ends first.
  static func end(_ owned: [Owned]) {
    for thing in owned.reversed() { thing.end() }
  }
}

/// One thing an owner owns: how to end it, and whether it ended on its own already (a
/// token cancelled by hand), so that a long-lived owner can forget it.
struct Owned: Sendable {
  let end: @Sendable () -> Void
  let hasEnded: @Sendable () -> Bool

  init(end: @escaping @Sendable () -> Void, hasEnded: @escaping @Sendable () -> Bool = { false }) {
    self.end = end
    self.hasEnded = hasEnded
  }

  /// A continuous observation: kept alive by its owner (the token may be dropped), and
  /// cancelled when the owner ends.
  static func token(_ token: TrackingToken) -> Owned {
    Owned(end: { token.cancel() }, hasEnded: { token.isCancelled })
  }

  /// A node whose handle someone else holds (a `Derived`'s computation, an iteration's
  /// signal): not kept alive by the owner, cancelled when the owner ends.
  static func weakly(_ object: some TrackingCancellable & Sendable) -> Owned {
    Owned(end: { [weak object] in _ = object?.cancel() }, hasEnded: { [weak object] in object == nil })
  }
}
