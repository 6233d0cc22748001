
/// The bookkeeping of one ``Derived``, always accessed under its lock.
///
/// - `generation` counts input notifications. A value computed from a snapshot taken
///   at generation *g* is cached only if the generation is still *g* when it is
///   stored: a notification that arrived meanwhile means the value may be stale.
/// - A *round* is one installed dependency observer (kind `willSetThenDidSet`). A
///   round is *in flight* between its first `willSet` and its `didSet`; while any
///   round is in flight the cache is neither used nor filled, because an input may
///   already hold its new value even though this object's `didSet` has not arrived
///   yet (observers of one property are notified one after another).
struct DerivedState<Value> {
  var cached: Value?
  var isValid = false
  var generation: UInt64 = 0
  var inFlightCount = 0
  var round: DerivedRound?
  var observer: TrackingObserver?
  var recomputeCount = 0

  /// Marks the cache stale and moves to a new generation.
  mutating func invalidate() {
    isValid = false
    generation &+= 1
  }

  /// Caches `value` if no input notification arrived since `generation`, no input
  /// is mid-change, and the current round is live (its observer will report the next
  /// change; concurrent recomputations may have installed rounds out of order).
  mutating func store(_ value: Value, ifStillAt generation: UInt64) {
    guard self.generation == generation, inFlightCount == 0, let round, !round.isRetired else { return }
    cached = value
    isValid = true
  }

  /// Ends `round`: its callbacks are ignored from now on.
  mutating func retire(_ round: DerivedRound) {
    round.isRetired = true
    if round.isInFlight {
      round.isInFlight = false
      inFlightCount -= 1
    }
  }

  /// Retires the current round and hands back its observer, for the caller to cancel
  /// once the lock is released. Retiring a live round also invalidates: a value being
  /// computed concurrently may rely on it to hear about changes.
  mutating func retireCurrentRound() -> TrackingObserver? {
    if let round, !round.isRetired {
      retire(round)
      invalidate()
    }
    round = nil
    defer { observer = nil }
    return observer
  }
}

/// Identifies one dependency observer of a ``Derived``, so that late callbacks of a
/// replaced observer are recognized and ignored. Its flags are only touched under
/// the owning `Derived`'s lock, which is what makes the `@unchecked` sound.
final class DerivedRound: @unchecked Sendable {
  var isRetired = false
  var isInFlight = false
}

/// A weak reference to a ``Derived`` for its dependency observer's callbacks, so
/// that the objects it reads never keep it alive. `@unchecked Sendable`: the callbacks
/// only call the `Derived`'s own locked bookkeeping and its registrar, which are
/// thread-safe whatever the value type.
struct WeakDerived<Value>: @unchecked Sendable {
  weak var object: Derived<Value>?
  init(_ object: Derived<Value>) { self.object = object }
}
