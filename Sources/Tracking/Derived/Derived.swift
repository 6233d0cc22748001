/// A value computed from tracked properties (and other derived values), cached until
/// one of them changes, and itself tracked: the *computed signal* of signals libraries.
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
/// - **Lazy and cached.** The closure runs on the first read of ``value``, and again
///   only when something it read changed since — at the next read, or when an observer
///   of the value needs it.
/// - **Only when it changed.** A recomputation whose value equals the previous one
///   (`==` for an `Equatable` value) is no change: nothing downstream recomputes, and
///   no observer runs. ``init(isEqual:fileID:line:_:)`` sets another rule; a value that is not
///   `Equatable` counts as changed at every recomputation (`init(_:)` (for any value)), as does
///   ``init(notifyingOnlyWhenChanged:fileID:line:_:)`` with `false`.
/// - **Tracked.** Reading ``value`` in `observe`, `withTracking`, a ``TrackedValues``
///   sequence or another `Derived` tracks the derived value, not what it read.
/// - **Glitch-free, once per change.** However many paths lead from a changed property
///   to a derived value (a diamond, a chain, a wide fan-in), it recomputes at most once
///   per change (and once per ``withTransaction(_:)``), after everything it reads is up
///   to date, so it never computes from a mix of old and new inputs; and each observer
///   downstream runs once, only if a value it read really changed.
/// - **When observers hear of it.** A derived value changes when it is recomputed: for
///   observers, when the write (or transaction) that changed an input ends. Continuous
///   observations then run once with the new value. One-shot trackings of it get
///   `willSet` (``value`` still returns the old value) and then `didSet`, with the
///   event naming this object and its `value`; its inputs hold their new values by
///   then.
/// - **Only while observed.** When nobody observes a derived value any more, it stops
///   observing its inputs at their next change (at once if one has changed since it
///   was last computed), and starts again at the next read.
///   Between a change and the next read nothing is computed.
/// - **Lifetime.** A `Derived` holds its closure; the objects it reads are not kept
///   alive by it beyond what the closure captures, and they do not keep it alive.
///   Releasing it stops its observation of its inputs. Made inside a
///   ``TrackingScope``'s `run`, it is *stopped* when the scope ends: it no longer
///   observes its inputs nor notifies its readers, and each read computes afresh.
///   (An observation's run does not own the derived values made in it: a model's
///   `lazy` derived value is often made by the first read, wherever that happens.)
///   ``keepsAlive`` keeps it observing its inputs while nobody observes it.
///
/// Threads: a `Derived` of a `Sendable` value is `Sendable`. Its closure runs on the
/// thread that reads ``value`` (or that runs an observer of it), one thread at a time:
/// two threads that read a stale value compute it once. Read it only where its closure
/// may run — the rule of the `@Trackable` objects the closure reads, whose storage is
/// not synchronized. A change made on another thread while the closure reads is
/// noticed, and the value is recomputed at its next read.
///
/// Reading a `Derived` from its own closure (directly or through others) is a cycle,
/// which stops the program with a message saying so.
public final class Derived<Value>: Trackable {
  let node: DerivedComputation

  /// The value computed by the closure in `operations` (see
  /// ``DerivedValueOperations``, made by the public initializers in the caller's
  /// module, for the value's type).
  @usableFromInline
  init(_operations operations: DerivedValueOperations, fileID: StaticString, line: UInt) {
    node = DerivedComputation(
      operations, derivedType: Derived<Value>.self, valueKeyPath: \Derived<Value>.value,
      site: SourceSite(fileID: fileID, line: line))
    node.start(for: self)
  }

  /// A derived value computed by `compute`, which counts as changed at every
  /// recomputation (its type has no `==` to compare with).
  ///
  /// - Parameters:
  ///   - fileID: Where the value is made, for the leak check (filled in for you).
  ///   - line: The line of the call (filled in for you).
  ///   - compute: Computes the value from tracked properties and other derived
  ///     values. Runs where the value is read, only when it is missing or stale.
  @inlinable
  public convenience init(fileID: StaticString = #fileID, line: UInt = #line, _ compute: @escaping () -> Value) {
    self.init(_operations: .alwaysDiffering(compute), fileID: fileID, line: line)
  }

  /// A derived value computed by `compute`: a recomputation that yields an equal value
  /// is no change.
  @inlinable
  public convenience init(fileID: StaticString = #fileID, line: UInt = #line, _ compute: @escaping () -> Value)
  where Value: Equatable {
    self.init(_operations: .equatable(compute), fileID: fileID, line: line)
  }

  /// A derived value whose recomputation counts as a change only when `isEqual` says the
  /// new value differs from the previous one (for example "equal to within a rounding",
  /// or "the same identifiers").
  @inlinable
  public convenience init(
    isEqual: @escaping (Value, Value) -> Bool, fileID: StaticString = #fileID, line: UInt = #line,
    _ compute: @escaping () -> Value
  ) {
    self.init(_operations: .comparing(compute, by: isEqual), fileID: fileID, line: line)
  }

  /// A derived value that compares its values with `==` when `notifyingOnlyWhenChanged`
  /// is `true` (as `init(_:)` does for every `Equatable` value), and counts every
  /// recomputation as a change when it is `false`.
  @inlinable
  public convenience init(
    notifyingOnlyWhenChanged: Bool, fileID: StaticString = #fileID, line: UInt = #line,
    _ compute: @escaping () -> Value
  ) where Value: Equatable {
    self.init(
      _operations: notifyingOnlyWhenChanged ? .equatable(compute) : .alwaysDiffering(compute), fileID: fileID,
      line: line)
  }

  deinit {
    node.cancel()
  }

  /// The derived value: the cached one when nothing it read has changed since it was
  /// computed, else freshly computed.
  ///
  /// Reading it inside a tracking scope tracks this derived value (not its inputs).
  @inlinable
  public var value: Value {
    // A value with no references (an `Int`, a `Bool`, a struct of them) is copied as
    // bytes, in one call into the node.
    if _isPOD(Value.self) {
      return withUnsafeTemporaryAllocation(of: Value.self, capacity: 1) { slot in
        let slot = slot.baseAddress.unsafelyUnwrapped
        _readTrivially(into: UnsafeMutableRawPointer(slot), byteCount: MemoryLayout<Value>.size)
        return slot.move()
      }
    }
    // Otherwise copied out under the node's lock, by code specialized for `Value`
    // where the value is read; the rest of the read is the node's.
    let cache = _beginRead()
    defer { _endRead() }
    return cache.assumingMemoryBound(to: Value.self).pointee
  }

  /// Brings the value up to date and returns its slot, with the node's lock held (see
  /// ``value``).
  @usableFromInline
  func _beginRead() -> UnsafeMutableRawPointer { node.beginRead() }

  /// Releases the node's lock and records the read (see ``value``).
  @usableFromInline
  func _endRead() { node.endRead() }

  /// Reads a value that holds no references into `destination` (`byteCount` bytes): a
  /// read begun, copied and ended in one call (see ``value``).
  @usableFromInline
  func _readTrivially(into destination: UnsafeMutableRawPointer, byteCount: Int) {
    node.readTrivially(into: destination, byteCount: byteCount)
  }

  /// Whether the value keeps observing its inputs while nobody observes it (`false` by
  /// default): mobx-utils' `keepAlive`.
  ///
  /// By default a derived value that loses its last observer stops observing its
  /// inputs at their next change, and observes them again at its next read: reads
  /// without an observer then cost a recomputation and new links to the inputs after
  /// each change. Kept alive, it stays subscribed, so such reads find the value cached
  /// until an input changes (it still recomputes only when read). Set it for a value
  /// read often outside any observation; it keeps its links to its inputs. Turned off
  /// while nobody observes the value and an input has changed since it was computed,
  /// the value stops observing its inputs at once.
  public var keepsAlive: Bool {
    get { Graph.withLock { node.graph.pointee.keepsAlive } }
    set {
      let turnedOff = Graph.withLock { () -> Bool in
        let graph = node.graph
        defer { graph.pointee.keepsAlive = newValue }
        return graph.pointee.keepsAlive && !newValue
      }
      if turnedOff { node.retireIfStaleAndUnobserved() }
    }
  }

  /// Whether the value was stopped by the ``TrackingScope`` it was made in (see
  /// "Lifetime").
  public var isStopped: Bool { node.isStopped }

  /// What this value is called in a ``TrackingGraph`` (by default, its type).
  public var name: String? {
    get { node.state.withLock { $0.name } }
    set { node.state.withLock { $0.name = newValue } }
  }

  /// How many times the closure has run. For tests and benchmarks.
  @_spi(Testing)
  public var recomputeCount: Int { node.recomputeCount }

  /// How many recomputations linked to their inputs anew: the first, those after the
  /// value retired (stopped observing its inputs), and those that read other inputs
  /// than the previous one (the others read the same inputs, in the same order, and
  /// kept their links as they were). For tests.
  @_spi(Testing)
  public var inputRelinkCount: Int { Graph.withLock { Int(node.graph.pointee.relinks) } }

  /// Whether the next read of ``value`` returns the cached value without computing.
  @_spi(Testing)
  public var isCached: Bool { node.withCurrentCache { $0 != nil } }

  /// The cached value, if it is current, without computing or recording anything.
  var cachedValue: Value? {
    node.withCurrentCache { $0?.assumingMemoryBound(to: Value.self).pointee }
  }

  /// The name of the one tracked property, `value`.
  public static var _$trackedPropertyNames: [String] { ["value"] }
}

/// A `Derived` is `Sendable` when its value is: its bookkeeping is locked, and the
/// closure only runs where the value is read (see "Threads" above).
extension Derived: @unchecked Sendable where Value: Sendable {}

extension Derived: CustomStringConvertible {
  /// The cached value if it is current, without computing or tracking anything.
  public var description: String {
    cachedValue.map { "Derived(\($0))" } ?? "Derived(<stale>)"
  }
}
