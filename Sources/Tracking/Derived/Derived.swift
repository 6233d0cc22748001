
/// A value computed from tracked properties, cached until one of them changes, and
/// itself tracked.
///
/// ```swift
/// @Trackable final class Cart {
///   var prices: [Int] = []
///   @TrackingIgnored lazy var total = Derived { [unowned self] in prices.reduce(0, +) }
/// }
///
/// let cart = Cart()
/// cart.total.value          // computes: 0
/// cart.total.value          // cached: `prices` did not change
/// cart.prices.append(3)     // marks `total` stale; computes nothing yet
/// cart.total.value          // computes: 3
/// ```
///
/// - **Cached and lazy.** The closure runs on the first read of ``value``, and again
///   only on a read after something it read last time changed. Changes that nobody
///   reads afterwards cost no computation.
/// - **Tracked.** Reading ``value`` inside ``withTracking(_:onChange:)`` (or an
///   ``observe(_:)`` callback, a ``TrackedValues`` sequence, another `Derived`) tracks
///   the derived value, not the properties behind it. Its observers are told when one
///   of its inputs is about to change (`willSet` timing, like a stored property) and
///   after it changed (`didSet` timing).
/// - **Only when changed.** With ``init(notifyingOnlyWhenChanged:_:)`` and an
///   `Equatable` value, an input change that leaves the value equal notifies no one.
///   The value is then recomputed eagerly, on the mutating thread, right after the
///   input changed, and both notifications (`willSet`, then `didSet`) are sent at that
///   point, once the new value is known: during the `willSet` notification ``value``
///   still returns the old value. This mode gives up laziness.
/// - **Glitch-free.** In a diamond (`b` and `c` derived from `a`, `d` from `b` and
///   `c`), a read of `d` made while `a` is changing — including from an observer of
///   `d` — never mixes old and new inputs: while an input is between its `willSet`
///   and its `didSet`, reads compute from the inputs' current state without using or
///   filling the cache. After the change, the next read recomputes each stale value
///   once.
/// - **Lifetime.** A `Derived` holds its closure and nothing else: the objects it
///   reads are not kept alive by it beyond what the closure captures, and they do not
///   keep it alive. Releasing a `Derived` cancels its pending tracking.
///
/// - **Once per change.** However many paths lead from a changed property to a
///   derived value (a diamond, a chain, a wide fan-in), the value recomputes at most
///   once per change, and each observer of it (or of anything downstream) runs once,
///   after every derived value has heard of the change (see `NotificationBatch`):
///   derived values first mark themselves stale along every path, then observers run.
///   A ``withTransaction(_:)`` is one change.
/// - **Custom equality.** With ``init(isEqual:_:)`` an input change that leaves the
///   value equal (by your rule) notifies no one.
/// - **Only while observed.** When nobody observes a derived value any more, it stops
///   observing its inputs at their next change (its cache is then dropped), and starts
///   again on the next read.
///
/// Threads: a `Derived` of a `Sendable` value is `Sendable`, and its own bookkeeping is
/// locked, so inputs may be mutated and the value read from several threads. Its
/// closure, however, runs on the thread that reads ``value`` (and, when it notifies
/// only when changed, on the thread that mutates an input), so read it only where the
/// closure may run — the same rule as for the `@Trackable` objects the closure reads,
/// whose storage is not synchronized. A change made on another thread *while* a
/// recomputation reads the inputs is noticed when its tracking is installed, so the
/// value is recomputed again.
///
/// Reading a `Derived` from its own closure (directly or through others) recurses
/// without end, as a computed property reading itself would.
public final class Derived<Value>: Trackable {
  private let registrar = TrackingRegistrar()
  private let compute: () -> Value
  /// Set when the value notifies only when it changed.
  private let isEqual: ((Value, Value) -> Bool)?
  private let state = Locked(DerivedState<Value>())

  /// A derived value whose observers are notified whenever one of its inputs changes.
  ///
  /// - Parameter compute: Computes the value from tracked properties (and other
  ///   `Derived` values). Runs on the thread that reads ``value``, only when the
  ///   cached value is missing or stale.
  public init(_ compute: @escaping () -> Value) {
    self.compute = compute
    self.isEqual = nil
  }

  /// A derived value whose observers are notified only when an input change yields a
  /// different value, if `notifyingOnlyWhenChanged` is `true`.
  ///
  /// In that mode the value is recomputed eagerly after each input change, once every
  /// derived value between the change and this one has heard of it (see the type's
  /// discussion). With `notifyingOnlyWhenChanged: false` this is ``init(_:)``.
  public init(notifyingOnlyWhenChanged: Bool, _ compute: @escaping () -> Value) where Value: Equatable {
    self.compute = compute
    self.isEqual = notifyingOnlyWhenChanged ? { $0 == $1 } : nil
  }

  /// A derived value whose observers are notified only when an input change yields a
  /// value that `isEqual` says differs from the previous one (for example "equal to
  /// within a rounding", or "the same identifiers"). The value is recomputed eagerly,
  /// as with ``init(notifyingOnlyWhenChanged:_:)``.
  public init(isEqual: @escaping (Value, Value) -> Bool, _ compute: @escaping () -> Value) {
    self.compute = compute
    self.isEqual = isEqual
  }

  deinit {
    state.withLock { $0.retireCurrentRound() }?.cancel()
  }

  /// The derived value: the cached one when its inputs have not changed since it was
  /// computed, else freshly computed.
  ///
  /// Reading it inside a tracking scope tracks this derived value (not its inputs).
  public var value: Value {
    registrar.access(self, property: 0, keyPath: \.value)
    return currentValue()
  }

  /// How many times the closure has run. For tests and benchmarks.
  @_spi(Testing)
  public var recomputeCount: Int { state.withLock { $0.recomputeCount } }

  /// Whether the next read of ``value`` returns the cached value without computing.
  @_spi(Testing)
  public var isCached: Bool { state.withLock { $0.isValid && $0.inFlightCount == 0 } }

  // MARK: Reading

  private enum Plan {
    case cached(Value)
    /// An input is between its `willSet` and its `didSet`: compute from the inputs'
    /// current state, neither trusting nor filling the cache.
    case untracked
    case tracked(generation: UInt64)
  }

  private func currentValue() -> Value {
    let plan = state.withLock { state -> Plan in
      if state.inFlightCount > 0 { return .untracked }
      if state.isValid, let cached = state.cached { return .cached(cached) }
      return .tracked(generation: state.generation)
    }
    switch plan {
    case .cached(let value):
      return value
    case .untracked:
      let value = withoutTracking(compute)
      state.withLock { $0.recomputeCount += 1 }
      return value
    case .tracked(let generation):
      let value = recompute()
      state.withLock { $0.store(value, ifStillAt: generation) }
      return value
    }
  }

  /// Runs the closure in a tracking scope of its own and installs the observer of
  /// the new round, retiring the previous one. Does not store the value.
  ///
  /// The scope is isolated from any enclosing one (`withoutTracking`): whoever reads
  /// ``value`` depends on this object, not on its inputs. The round's observer is a
  /// propagation observer: its did-set runs before any ordinary observer in a batch.
  private func recompute() -> Value {
    let round = DerivedRound()
    let weakSelf = WeakDerived(self)
    let willSet = TrackingObserver.Handler.plain { weakSelf.object?.inputWillChange(round) }
    let didSet = TrackingObserver.Handler.plain { weakSelf.object?.inputDidChange(round) }
    state.withLock { $0.recomputeCount += 1 }
    // An install that notices a change made meanwhile by another thread calls this
    // round's callbacks at once, before `track` returns: the round is then retired (and
    // the value not cached), and this value's readers have been told to read again.
    let (value, observer) = withoutTracking {
      track(compute) { .make(kind: .willSetThenDidSet, willSet: willSet, didSet: didSet, isPropagation: true) }
    }
    // Whether the round was retired meanwhile is read under the lock, which guards it:
    // once it is installed, whoever retires it later also cancels its observer.
    let (previous, retired) = state.withLock { state -> (TrackingObserver?, Bool) in
      let previous = state.retireCurrentRound()
      guard !round.isRetired else { return (previous, true) }
      state.round = round
      state.observer = observer
      return (previous, false)
    }
    if previous !== observer { previous?.cancel() }
    if retired { observer?.cancel() }
    return value
  }

  // MARK: Input changes (on the mutating thread)

  private func inputWillChange(_ round: DerivedRound) {
    // Nobody observes this value any more: stop observing its inputs (the cache is
    // dropped; the next read recomputes and observes them again).
    if !registrar.hasPendingObservers {
      state.withLock { state -> TrackingObserver? in
        guard state.round === round else { return nil }
        return state.retireCurrentRound()
      }?.cancel()
      return
    }
    let notify = state.withLock { state -> Bool in
      guard !round.isRetired else { return false }
      state.invalidate()
      if !round.isInFlight {
        round.isInFlight = true
        state.inFlightCount += 1
      }
      return isEqual == nil
    }
    if notify { registrar.willSet(self, property: 0, keyPath: \.value) }
  }

  /// Runs in the propagation phase of the change's batch: passes the change on to this
  /// value's readers (their did-set callbacks join the batch), or — when it notifies
  /// only when changed — queues the eager recomputation for the settling phase.
  private func inputDidChange(_ round: DerivedRound) {
    // The round's observer has ended: the next read (or the eager recomputation
    // below) installs a new one.
    let accepted = state.withLock { state -> (previous: Value?, generation: UInt64)? in
      guard !round.isRetired else { return nil }
      state.retire(round)
      state.invalidate()
      return (state.cached, state.generation)
    }
    guard let accepted else { return }
    guard isEqual != nil else {
      registrar.didSet(self, property: 0, keyPath: \.value)
      return
    }
    let weakSelf = WeakDerived(self)
    NotificationBatch.settle { weakSelf.object?.settle(previous: accepted.previous, generation: accepted.generation) }
  }

  /// Recomputes after an input change and notifies only if the value changed. Runs
  /// once propagation is done, so no input is mid-change.
  private func settle(previous: Value?, generation: UInt64) {
    guard let isEqual else { return }
    // Nobody observes this value any more: stop observing its inputs until the next
    // read, which recomputes (the cache stays invalid).
    guard registrar.hasPendingObservers else { return }
    let value = recompute()
    if let previous, isEqual(previous, value) {
      state.withLock { $0.store(value, ifStillAt: generation) }
      return
    }
    // Announce with Apple's timing: `willSet` observers still read the old value.
    if let previous {
      state.withLock { $0.store(previous, ifStillAt: generation) }
    }
    registrar.willSet(self, property: 0, keyPath: \.value)
    state.withLock { state in
      state.isValid = false
      state.store(value, ifStillAt: generation)
    }
    registrar.didSet(self, property: 0, keyPath: \.value)
  }
}

/// A `Derived` is `Sendable` when its value is: its bookkeeping is locked, and the
/// closure only runs where the value is read (see "Threads" above).
extension Derived: @unchecked Sendable where Value: Sendable {}

extension Derived: CustomStringConvertible {
  /// The cached value if there is one, without computing or tracking anything.
  public var description: String {
    let cached = state.withLock { $0.isValid ? $0.cached : nil }
    return cached.map { "Derived(\($0))" } ?? "Derived(<stale>)"
  }
}
