/// The bookkeeping of one ``Derived``: everything but the cached value itself, always
/// accessed under its lock.
///
/// Not generic, on purpose: `Derived<Value>`'s methods are compiled once for every
/// `Value`, and in such code each use of a type built from `Value` (`Value?`, a tuple,
/// a generic struct) asks the runtime for that type's metadata, a hash-table lookup of
/// several hundred instructions. Kept here, the work of a change (the rounds, the
/// generation, the lock) runs as ordinary specialized code.
///
/// - `hasCache` says whether the `Derived`'s cache slot holds a value; `isValid`,
///   whether that value is current.
/// - `generation` counts input notifications. A value computed from a snapshot taken
///   at generation *g* is cached only if the generation is still *g* when it is
///   stored: a notification that arrived meanwhile means the value may be stale.
/// - A *round* is one installed dependency observer (a repeating one, kind
///   `willSetAndDidSetRepeating`) together with `signature`, what the recomputation
///   that installed it read. A round is *in flight* between its first `willSet` and
///   its `didSet`; while any round is in flight the cache is neither used nor filled,
///   because an input may already hold its new value even though this object's
///   `didSet` has not arrived yet (observers of one property are notified one after
///   another).
/// - At its `didSet` a round goes *stale*: it ignores its inputs (the readers have
///   been told; the next read recomputes), but its observer stays installed. The next
///   recomputation revives it before running the closure, and keeps it if the closure
///   read the same inputs; otherwise it *retires* it (for good: its observer is
///   cancelled) and installs a new round. Only the current round is ever retired, and
///   retiring it also clears `round`: the current round is never a retired one.
struct DerivedState {
  var hasCache = false
  var isValid = false
  var generation: UInt64 = 0
  var inFlightCount = 0
  var round: DerivedRound?
  var observer: TrackingObserver?
  var signature = ReadSignature.empty
  var recomputeCount = 0
  /// How many rounds were made current (observers installed on the inputs).
  var roundCount = 0

  /// How a read of the value proceeds.
  enum ReadPlan {
    /// Return the cached value.
    case cached
    /// An input is between its `willSet` and its `didSet`: compute from the inputs'
    /// current state, neither trusting nor filling the cache.
    case untracked
    /// Recompute in a tracking scope; cache the value if still at `generation`.
    case tracked(generation: UInt64)
  }

  var readPlan: ReadPlan {
    if inFlightCount > 0 { return .untracked }
    if isValid && hasCache { return .cached }
    return .tracked(generation: generation)
  }

  /// Marks the cache stale and moves to a new generation.
  mutating func invalidate() {
    isValid = false
    generation &+= 1
  }

  /// Whether a value computed at `generation` may be cached: no input notification
  /// arrived since, no input is mid-change, and the current round is listening (its
  /// observer will report the next change; concurrent recomputations may have
  /// installed rounds out of order).
  func mayStore(computedAt generation: UInt64) -> Bool {
    guard self.generation == generation, inFlightCount == 0, let round else { return false }
    return round.isListening
  }

  /// Starts a recomputation: revives the current round if its observer is still
  /// installed, and returns it with its observer and what it observes.
  mutating func startRecomputation() -> (
    round: DerivedRound, observer: TrackingObserver, signature: ReadSignature
  )? {
    recomputeCount += 1
    guard let round, let observer, observer.isPending else { return nil }
    round.isStale = false
    return (round, observer, signature)
  }

  /// Called at an input's `willSet`: whether the readers are to be told.
  mutating func inputWillChange(_ round: DerivedRound) -> Bool {
    guard round.isListening else { return false }
    invalidate()
    if !round.isInFlight {
      round.isInFlight = true
      inFlightCount += 1
    }
    return true
  }

  /// Called at an input's `didSet`: whether the readers are to be told. The round goes
  /// stale; a second did-set of the same change (a diamond reaches the value along two
  /// paths) finds it stale and is ignored.
  mutating func inputDidChange(_ round: DerivedRound) -> Bool {
    guard round.isListening else { return false }
    round.isStale = true
    land(round)
    invalidate()
    return true
  }

  /// Ends `round`'s flight, if it is in flight.
  private mutating func land(_ round: DerivedRound) {
    if round.isInFlight {
      round.isInFlight = false
      inFlightCount -= 1
    }
  }

  /// Makes `round` current, with the observer and signature of the recomputation that
  /// made it, and returns the previous round's observer for the caller to cancel once
  /// the lock is released. (A round that is not current yet cannot be retired: only
  /// `retireCurrentRound()` retires. Its callbacks may have made it stale meanwhile;
  /// a stale round is adopted as it is, and the next read revives it.)
  mutating func adopt(
    _ round: DerivedRound, observer: TrackingObserver?, signature: ReadSignature
  ) -> TrackingObserver? {
    let previous = retireCurrentRound()
    self.round = round
    self.observer = observer
    self.signature = signature
    roundCount += 1
    return previous
  }

  /// Retires the current round and hands back its observer, for the caller to cancel
  /// once the lock is released. Retiring a live round also invalidates: a value being
  /// computed concurrently may rely on it to hear about changes.
  mutating func retireCurrentRound() -> TrackingObserver? {
    if let round {
      round.isRetired = true
      land(round)
      invalidate()
    }
    round = nil
    signature = .empty
    defer { observer = nil }
    return observer
  }
}

/// Identifies one dependency observer of a ``Derived``, so that late callbacks of a
/// replaced observer are recognized and ignored. Its flags are only touched under
/// the owning `Derived`'s lock, which is what makes the `@unchecked` sound.
final class DerivedRound: @unchecked Sendable {
  /// Ended for good: its observer is cancelled (or about to be).
  var isRetired = false
  /// Heard a did-set since the last recomputation.
  var isStale = false
  var isInFlight = false

  /// Whether its callbacks count: it is neither retired nor stale.
  var isListening: Bool { !isRetired && !isStale }
}

/// A weak reference to a ``Derived`` for its dependency observer's callbacks, so
/// that the objects it reads never keep it alive. `@unchecked Sendable`: the callbacks
/// only call the `Derived`'s own locked bookkeeping and its registrar, which are
/// thread-safe whatever the value type.
struct WeakDerived<Value>: @unchecked Sendable {
  weak var object: Derived<Value>?
  init(_ object: Derived<Value>) { self.object = object }
}
