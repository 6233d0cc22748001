
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
/// - **One observer while the inputs stay the same.** A recomputation that reads the
///   same properties of the same objects as the previous one keeps the observer that
///   one installed on them, as continuous observation does: nothing is allocated,
///   installed or cancelled per change. Between a change and the next read that
///   observer ignores further changes (the readers have been told already).
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
  /// Everything but the cached value (see `DerivedState` for why it is not generic).
  private let bookkeeping = Locked(DerivedState())
  /// The cached value's slot: initialized while `hasCache` is set; only touched under
  /// the bookkeeping's lock.
  private let cache = UnsafeMutablePointer<Value>.allocate(capacity: 1)
  /// `\.value`, made once: made at each change (for the observers that take events),
  /// a key path into a generic class is instantiated from its mangled name.
  private let valueKeyPath: KeyPath<Derived, Value> = \.value

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
    bookkeeping.withLock { $0.retireCurrentRound() }?.cancel()
    // No lock: nothing else can reach this object any more (its observer's callbacks
    // hold it weakly, and a weak load fails once deinit has begun).
    if bookkeeping.valueWhileLocked.pointee.hasCache { cache.deinitialize(count: 1) }
    cache.deallocate()
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
  public var recomputeCount: Int { bookkeeping.withLock { $0.recomputeCount } }

  /// How many times a recomputation installed a new observer on the inputs (the
  /// others kept the one installed, having read the same inputs). For tests.
  @_spi(Testing)
  public var inputObserverInstallCount: Int { bookkeeping.withLock { $0.roundCount } }

  /// Whether the next read of ``value`` returns the cached value without computing.
  @_spi(Testing)
  public var isCached: Bool { bookkeeping.withLock { $0.isValid && $0.inFlightCount == 0 } }

  // MARK: The cache (under the bookkeeping's lock)

  /// The cached value, current or not. Between `lock()` and `unlock()`.
  private var cachedWhileLocked: Value? {
    bookkeeping.valueWhileLocked.pointee.hasCache ? cache.pointee : nil
  }

  /// Caches `value` if nothing changed since `generation` (see `DerivedState`).
  private func store(_ value: Value, computedAt generation: UInt64) {
    bookkeeping.lock()
    defer { bookkeeping.unlock() }
    let state = bookkeeping.valueWhileLocked
    guard state.pointee.mayStore(computedAt: generation) else { return }
    if state.pointee.hasCache {
      cache.pointee = value
    } else {
      cache.initialize(to: value)
      state.pointee.hasCache = true
    }
    state.pointee.isValid = true
  }

  // MARK: Reading

  private func currentValue() -> Value {
    bookkeeping.lock()
    let plan = bookkeeping.valueWhileLocked.pointee.readPlan
    if case .cached = plan {
      defer { bookkeeping.unlock() }
      return cache.pointee
    }
    bookkeeping.unlock()
    if case .tracked(let generation) = plan {
      let value = recompute()
      store(value, computedAt: generation)
      return value
    }
    // An input is mid-change: compute from the current state, leaving the cache alone.
    let value = withoutTracking(compute)
    bookkeeping.withLock { $0.recomputeCount += 1 }
    return value
  }

  /// Runs the closure in a tracking scope of its own and makes sure a round observes
  /// what it read. Does not store the value.
  ///
  /// The current round, if its observer is still installed, is revived before the
  /// closure runs: from then on it hears every change of the inputs it observes, so a
  /// change made by another thread during the reads is noticed. When the closure read
  /// the same properties of the same objects as the recomputation that installed the
  /// round, the round is kept: nothing is installed or cancelled, and a write to an
  /// input costs the same however many times the value was recomputed. Otherwise a new
  /// round is installed and the previous one cancelled.
  ///
  /// The scope is isolated from any enclosing one: whoever reads ``value`` depends on
  /// this object, not on its inputs.
  private func recompute() -> Value {
    let current = bookkeeping.withLock { $0.startRecomputation() }
    var reads = AccessList()
    reads.owner = scopeOwner
    let value: Value
    if _slowPath(TrackingInterop.observesAppleObservables) {
      value = computeObservingApple(into: &reads)
    } else {
      value = AccessList.collectIsolated(into: &reads, compute)
    }
    if let current {
      // The did-sets of the closure's own writes, queued in this thread's batch while
      // the revived round listened: its own writes change nothing for it.
      NotificationBatch.discardPropagation(current.observer)
    }
    // Matching reads the objects' serial numbers (under their locks): outside this one.
    if let current, current.signature.matches(reads) {
      let kept = bookkeeping.withLock { $0.round === current.round }
      if kept { return value }
    }
    let round = DerivedRound()
    let observer = reads.isEmpty ? nil : makeObserver(for: round)
    // An install that notices a change made meanwhile by another thread calls this
    // round's callbacks at once: the round is then stale (and the value not cached),
    // and this value's readers have been told to read again.
    if let observer { reads.installReporting(observer) }
    adopt(round, observer: observer, signature: reads.signature)
    return value
  }

  /// Runs the closure as ``recompute()`` does, inside Apple's tracking too, when Apple's
  /// `@Observable` objects are observed (``TrackingInterop/observesAppleObservables``). A
  /// value that reads none of them is cached and observed exactly as with the switch
  /// off. An Apple change reaches the current round as a will-set only (Apple's API
  /// reports nothing after it), so the value stays in flight — computed afresh at every
  /// read, never cached — until an input of ours reports a did-set: a value cached
  /// before Apple's write lands would keep the old value. Readers of this value that run
  /// in scopes of their own see the Apple change directly: Apple adds the reads of a
  /// nested tracking to the enclosing one.
  private func computeObservingApple(into reads: inout AccessList) -> Value {
    let weakSelf = WeakDerived(self)
    return TrackingInterop.withAppleTracking(
      { AccessList.collectIsolated(into: &reads, compute) },
      onChange: { weakSelf.object?.appleInputWillChange() }
    ).value
  }

  /// An Apple object read by the latest recomputation is about to change.
  private func appleInputWillChange() {
    guard let round = bookkeeping.withLock({ $0.round }) else { return }
    inputWillChange(round)
  }

  /// The observer of one round: it stays installed from one recomputation to the next
  /// while they read the same inputs. A propagation observer: its did-set runs before
  /// any ordinary observer in a batch.
  private func makeObserver(for round: DerivedRound) -> TrackingObserver {
    let weakSelf = WeakDerived(self)
    return .make(
      kind: .willSetAndDidSetRepeating,
      willSet: .plain { weakSelf.object?.inputWillChange(round) },
      didSet: .plain { weakSelf.object?.inputDidChange(round) },
      isPropagation: true)
  }

  /// Makes `round` the current one and cancels the previous round's observer.
  private func adopt(_ round: DerivedRound, observer: TrackingObserver?, signature: ReadSignature) {
    bookkeeping.withLock { $0.adopt(round, observer: observer, signature: signature) }?.cancel()
  }

  // MARK: Input changes (on the mutating thread)

  /// Marks the scopes of this value's recomputations (see `recompute()`).
  private var scopeOwner: UnsafeRawPointer {
    UnsafeRawPointer(Unmanaged.passUnretained(bookkeeping.buffer).toOpaque())
  }

  /// Whether the change being reported is a write made by this value's own closure,
  /// during a recomputation on this thread. Such writes are not changes for it (as a
  /// tracking scope's own writes do not fire it): its round, revived for the
  /// recomputation, would otherwise tell its readers, whose next read recomputes and
  /// writes again.
  private var isOwnWrite: Bool { AccessList.isInScope(openedBy: scopeOwner) }

  private func inputWillChange(_ round: DerivedRound) {
    if isOwnWrite { return }
    // Nobody observes this value any more: stop observing its inputs (the cache is
    // dropped; the next read recomputes and observes them again).
    if !registrar.hasPendingObservers {
      bookkeeping.withLock { state -> TrackingObserver? in
        guard state.round === round else { return nil }
        return state.retireCurrentRound()
      }?.cancel()
      return
    }
    let notify = bookkeeping.withLock { $0.inputWillChange(round) }
    if notify && isEqual == nil { registrar.willSet(self, property: 0, keyPath: valueKeyPath) }
  }

  /// Runs in the propagation phase of the change's batch: passes the change on to this
  /// value's readers (their did-set callbacks join the batch), or — when it notifies
  /// only when changed — queues the eager recomputation for the settling phase.
  private func inputDidChange(_ round: DerivedRound) {
    if isOwnWrite { return }
    guard isEqual != nil else {
      if bookkeeping.withLock({ $0.inputDidChange(round) }) {
        registrar.didSet(self, property: 0, keyPath: valueKeyPath)
      }
      return
    }
    bookkeeping.lock()
    let accepted = bookkeeping.valueWhileLocked.pointee.inputDidChange(round)
    let previous = cachedWhileLocked
    let generation = bookkeeping.valueWhileLocked.pointee.generation
    bookkeeping.unlock()
    guard accepted else { return }
    let weakSelf = WeakDerived(self)
    NotificationBatch.settle { weakSelf.object?.settle(previous: previous, generation: generation) }
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
      store(value, computedAt: generation)
      return
    }
    // Announce with Apple's timing: `willSet` observers still read the old value.
    if let previous { store(previous, computedAt: generation) }
    registrar.willSet(self, property: 0, keyPath: valueKeyPath)
    bookkeeping.withLock { $0.isValid = false }
    store(value, computedAt: generation)
    registrar.didSet(self, property: 0, keyPath: valueKeyPath)
  }
}

/// A `Derived` is `Sendable` when its value is: its bookkeeping is locked, and the
/// closure only runs where the value is read (see "Threads" above).
extension Derived: @unchecked Sendable where Value: Sendable {}

extension Derived: CustomStringConvertible {
  /// The cached value if there is one, without computing or tracking anything.
  public var description: String {
    bookkeeping.lock()
    let cached = bookkeeping.valueWhileLocked.pointee.isValid ? cachedWhileLocked : nil
    bookkeeping.unlock()
    return cached.map { "Derived(\($0))" } ?? "Derived(<stale>)"
  }
}
