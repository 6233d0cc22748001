import CTrackingSupport

/// Running callbacks on the isolation they were written for.
///
/// Every callback API takes `@isolated(any)` closures that inherit the caller's actor
/// (`@_inheritActorContext`), so main-actor code can update main-actor state from a
/// callback. A change can happen on any thread, though. The rule, the same for every
/// API:
/// - a nonisolated closure runs where the change happens, synchronously;
/// - an isolated closure runs synchronously when the change happens on its actor
///   (the usual case: a main-actor model changed by main-actor code);
/// - otherwise it is scheduled on its actor, and runs when the actor is free; the
///   events of one one-shot tracking keep their order there (``ActorHandOff``).
///
/// SE-0506's one-shot form is the exception: its `onChange` is a nonisolated
/// `@Sendable` closure, always run where the change happens.
@usableFromInline
package enum Isolation {
  /// Whether the calling code runs on `actor`'s executor right now.
  ///
  /// Uses the concurrency runtime's own non-trapping check, which the standard library
  /// does not expose. On runtimes without it (Apple OSes before 26), the main actor is
  /// recognized by the main thread, and any other actor counts as not current: the
  /// callback is then scheduled on it, which is correct, only later.
  @inline(__always)
  package static func isCurrent(_ actor: any Actor) -> Bool {
    // `UnownedSerialExecutor` is the runtime's two-word executor reference.
    let (identity, implementation) = unsafeBitCast(actor.unownedExecutor, to: (UnsafeRawPointer?, UInt).self)
    switch tracking_is_current_executor(identity, implementation) {
    case 1: return true
    case 0: return false
    default: return actor === MainActor.shared && tracking_is_main_thread() == 1
    }
  }

  /// Runs `body`, which must run on `isolation`: now when the caller is on it (or it is
  /// `nil`), else scheduled there.
  package static func perform(on isolation: (any Actor)?, _ body: @escaping @Sendable () -> Void) {
    if let actor = isolation, !isCurrent(actor) {
      schedule(on: actor) { _ in body() }
    } else {
      body()
    }
  }

  /// Runs `body` on `actor` as soon as the actor is free: the one way the runtime
  /// schedules a callback on an actor from a thread that is not on it.
  ///
  /// Each call is a task of its own, and tasks scheduled one after another may start in
  /// any order: a caller with several calls to make in order queues them itself and
  /// schedules one run at a time (see ``ActorHandOff``).
  static func schedule(on actor: any Actor, _ body: @escaping @Sendable (isolated any Actor) -> Void) {
    Task { await runOn(actor, body) }
  }

  private static func runOn(_ actor: isolated any Actor, _ body: @Sendable (isolated any Actor) -> Void) {
    body(actor)
  }
}

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
package func callOnItsActor<T, Failure: Error>(
  _ body: @escaping @isolated(any) @Sendable () throws(Failure) -> T, checked: Bool = true
) throws(Failure) -> T {
  if checked { body.isolation?.preconditionIsolated("a tracked closure was called away from its actor") }
  typealias Plain = @Sendable () throws(Failure) -> T
  let plain = unsafeBitCast(body, to: Plain.self)
  return try plain()
}

/// ``callOnItsActor(_:checked:)`` for a closure that takes an argument; the caller is on
/// the closure's actor (or it has none).
@inline(__always)
package func callOnItsActor<Argument>(
  _ body: @escaping @isolated(any) @Sendable (Argument) -> Void, _ argument: Argument
) {
  typealias Plain = @Sendable (Argument) -> Void
  unsafeBitCast(body, to: Plain.self)(argument)
}

/// An `@isolated(any)` closure seen as a nonisolated one (the same representation),
/// to be called only from its own isolation, as ``callOnItsActor(_:checked:)`` does.
/// Done once per closure and kept, for calls made many times (a reaction's runs).
///
/// The closure is reinterpreted inside a struct rather than passed to `unsafeBitCast`:
/// a function value handed to a generic parameter is converted to the most general
/// representation and back, which wrapped the kept closure in two thunks that every
/// call went through (about 30 instructions per run of a reaction, `callback.rerun`).
/// A struct's field of a concrete function type keeps the closure as it is.
func nonisolatedView(of body: @escaping @isolated(any) @Sendable () -> Void) -> @Sendable () -> Void {
  struct Isolated { let body: @isolated(any) @Sendable () -> Void }
  struct Plain { let body: @Sendable () -> Void }
  return reinterpret(Isolated(body: body), as: Plain.self).body
}

/// ``nonisolatedView(of:)`` for a closure that takes an event.
func nonisolatedView(
  of body: @escaping @isolated(any) @Sendable (TrackingEvent) -> Void
) -> @Sendable (TrackingEvent) -> Void {
  struct Isolated { let body: @isolated(any) @Sendable (TrackingEvent) -> Void }
  struct Plain { let body: @Sendable (TrackingEvent) -> Void }
  return reinterpret(Isolated(body: body), as: Plain.self).body
}

/// `value`'s bytes as a `Target` (a copy: the references it holds are retained once
/// more for it). Both types must have the same layout, which is checked.
private func reinterpret<Source, Target>(_ value: Source, as target: Target.Type) -> Target {
  precondition(MemoryLayout<Source>.size == MemoryLayout<Target>.size, "closure representations differ")
  return withUnsafeBytes(of: value) { $0.load(as: Target.self) }
}
