/// A node's place in the graph. Under the graph lock.
///
/// Three kinds share it (``Kind``): a *source* is one tracked property of one object
/// (see ``PropertySource``): it has subscribers and a version, never dependencies; a
/// *computation* (``Computation``) has both, and the flags of its cached value; a
/// *reaction* (``Reaction``) has dependencies only (its own flags stay in its
/// ``NodeState``). The memory belongs to the node's owner, which frees it in its deinit;
/// that only runs once no link names it (a link holds its two owners).
struct GraphNode {
  // The fields are declared by size, words first, then 4-byte counts, then flags: in
  // that order the node takes 120 bytes (a 128-byte heap block), where grouped by role
  // it took 160 (176). Every source, computation and reaction has one.

  enum Kind: UInt8 {
    case source, computation, reaction
  }

  /// The object this memory belongs to, unretained: a ``ReactiveNode``, or the
  /// ``PropertySource`` of a source.
  let owner: Unmanaged<AnyObject>
  /// Grows by one each time the value changes (a source: each did-set).
  var version: UInt64 = 0
  /// The thread recomputing it, or 0: one update at a time, and the own-writes rule.
  var runningThread: UInt = 0
  /// A source's: the registrar storage of its object, by address, while the object
  /// lives: how a run's read finds its link to the source without looking the source
  /// up. Set to `nil` when the object is deallocated, before its address can be
  /// reused (see ``PropertySource``).
  var sourceStorage: UnsafeMutableRawPointer?

  // Links.

  /// The nodes the latest run read (sources and computations), in order.
  var deps: LinkRef?
  /// During a run that has read a node: the link of its latest read (the run's
  /// cursor), `nil` before the first. The links after it are the previous run's that
  /// this run has not read (yet).
  var depsTail: LinkRef?
  /// The nodes whose latest run read this one.
  var subs: LinkRef?
  var subsTail: LinkRef?
  /// During a run that has read many nodes: those it read, so that a read the cursor
  /// did not expect finds whether the run made it already without scanning the run's
  /// links (see ``Graph/recordRead(_:by:version:first:work:)``). Freed when the run
  /// ends.
  var readIndex: UnsafeMutablePointer<ReadIndex>?

  // Counts.

  /// A source's property number (``PropertySource/everyProperty`` for a whole-object
  /// read). Fixed when the source is made: read under the storage's lock too.
  let sourceID: Int32
  /// A source's subscribers that hear will-sets.
  var willSetSubscribers: UInt32 = 0
  /// Counts the times it was told that an input may have changed, the ones that found
  /// it stale already included: a pull that found every input unchanged makes it
  /// current only if no such news came while it looked.
  var staleMarks: UInt32 = 0
  /// Moves each time a run relinks or drops its dependencies (see ``Graph``, "Edges").
  var epoch: UInt32 = 0
  /// The pulls standing on this node or waiting for it, which reached it through a
  /// link (see ``pin()``).
  var pins: UInt32 = 0
  /// The references of links dropped while the node was pinned, released when the
  /// last pin goes (see ``unpin()``).
  var heldReleases: UInt32 = 0
  /// How many times a computation was computed (diagnostics; wraps).
  var recomputeCount: UInt32 = 0
  /// How many runs linked to other inputs than the previous run's (the first run
  /// included), or linked them again after the node retired; the others kept their
  /// links as they were (diagnostics; wraps).
  var relinks: UInt32 = 0

  // Flags. As a subscriber (a computation's or a reaction's), fixed when the node is
  // made:

  let kind: Kind
  /// A source's will-set reaches it (a reaction that asked for will-sets, or a node that
  /// records the causes of its runs).
  let hearsWillSet: Bool
  /// A source's did-set reaches it (every node but a reaction to deallocations only).
  let hearsDidSet: Bool
  /// A change of a source it read is told to the node with its description (a reaction,
  /// or a computation that records causes), rather than only marking it dirty.
  let isToldOfSources: Bool
  /// How much of a source's change the node keeps (see ``ReactiveNode/changeNeeds``).
  let changeNeeds: TrackingObserver.Handler.Needs

  // A computation's value:

  /// Why the value must be brought up to date before it is read, none when it is
  /// current. One byte, so that a read or a pull tests them all at once
  /// (``needsUpdate``).
  private var updateReasons = UpdateReasons.missingCache

  /// The reasons of ``updateReasons``, a bit each.
  private struct UpdateReasons: OptionSet {
    let rawValue: UInt8
    static let dirty = Self(rawValue: 1)
    static let pending = Self(rawValue: 2)
    static let missingCache = Self(rawValue: 4)
    static let appleInFlight = Self(rawValue: 8)
    static let stopped = Self(rawValue: 16)
  }

  /// Whether `reason` holds; set and cleared in place.
  private subscript(reason: UpdateReasons) -> Bool {
    @inline(__always) get { updateReasons.contains(reason) }
    @inline(__always) set { if newValue { updateReasons.insert(reason) } else { updateReasons.remove(reason) } }
  }

  /// An input surely changed: recompute at the next pull.
  var dirty: Bool { get { self[.dirty] } set { self[.dirty] = newValue } }
  /// A computation it read may have changed: pull that one first.
  var pending: Bool { get { self[.pending] } set { self[.pending] = newValue } }
  /// An Apple object it read is changing: recomputed at every read until an input of
  /// ours reports a did-set.
  var appleInFlight: Bool { get { self[.appleInFlight] } set { self[.appleInFlight] = newValue } }
  /// Stopped by its scope: computed afresh at every read.
  var stopped: Bool { get { self[.stopped] } set { self[.stopped] = newValue } }
  /// The cache holds a value (current or not). Always set for a source. Its own byte,
  /// besides ``updateReasons``: the thread that recomputes the value reads it without
  /// the lock (only that thread sets it, see ``DerivedComputation``), while other
  /// threads change the reasons under the lock.
  private(set) var hasCache = false
  /// Notes that the cache holds a value from now on (under the lock, by the thread that
  /// holds the value's update lock).
  @inline(__always)
  mutating func noteCached() {
    hasCache = true
    updateReasons.remove(.missingCache)
  }
  /// Cancelled: hears no change any more.
  var cancelled = false
  /// Announces its changes through its registrar (see ``Computation``).
  var announces = false
  /// Its observed/unobserved hooks count its subscribers.
  var hooked = false
  /// A computation's: it keeps observing its inputs while nobody observes it
  /// (``Derived/keepsAlive``), so it never retires.
  var keepsAlive = false
  /// A computation's: it retired (``Graph/retire(_:work:)``). Its links stay on its
  /// list of dependencies, off its inputs' lists of subscribers: it hears no change,
  /// and its inputs count it as no subscriber. The claim of its next recomputation
  /// puts them back (``Graph/attachDependencies(of:work:)``), so that a value read
  /// again reads through its links as before, rather than look its inputs up again;
  /// that run's end drops those it did not read. Set only while no run of it is under
  /// way or claimed, and the value is dirty meanwhile.
  var retired = false
  /// How the walk under way reached it, when that walk passes through stale values
  /// (see ``Graph``'s propagation, "Passing through stale values"): none at all
  /// outside such a walk, which clears what it marked before it ends.
  var walkMark = WalkMark.none

  enum WalkMark: UInt8 {
    /// Not reached (by the walk under way, if any).
    case none
    /// Reached current, and made pending.
    case reached
    /// Reached stale already, and passed through as it was.
    case passedThrough
  }

  // A run's:

  /// A run of this node is reading through the cursor: its links are the run's to
  /// change until it ends (a cancellation or a retirement leaves them to it).
  var running = false
  /// What the run under way noted that its end must see to: the common end, a run
  /// that read what the previous one read, tests this one byte (see
  /// ``Graph/endRun(of:work:)``).
  var runNotes = RunNotes()

  struct RunNotes: OptionSet {
    let rawValue: UInt8
    static let relinked = Self(rawValue: 1)
    static let ignoredOwnMark = Self(rawValue: 2)
  }

  /// The run under way made, moved or dropped a link.
  var relinked: Bool {
    @inline(__always) get { runNotes.contains(.relinked) }
    @inline(__always) set { if newValue { runNotes.insert(.relinked) } else { runNotes.remove(.relinked) } }
  }
  /// The run under way ignored, as its own (the own-writes rule), a change that made
  /// a computation it read stale, or may have (a reaction told while it runs). That
  /// computation passes no later change on while it stays stale, and this node would
  /// never hear of one: until the run's end brings it up to date
  /// (``ReactiveNode/settleInputs()``), changes pass on through stale computations
  /// (``Graph/noteIgnoredOwnMark(_:)``). Set only through that function.
  var ignoredOwnMark: Bool {
    @inline(__always) get { runNotes.contains(.ignoredOwnMark) }
    @inline(__always) set {
      if newValue { runNotes.insert(.ignoredOwnMark) } else { runNotes.remove(.ignoredOwnMark) }
    }
  }

  var isComputation: Bool { kind == .computation }
  var isSource: Bool { kind == .source }

  /// A computation's or a reaction's.
  init(node: ReactiveNode, kind: Kind) {
    owner = Unmanaged.passUnretained(node)
    self.kind = kind
    hearsWillSet = node.hearsWillSet || node.introspects
    hearsDidSet = node.hearsDidSet
    isToldOfSources = kind == .reaction || node.introspects
    changeNeeds = node.changeNeeds
    sourceID = 0
  }

  /// A source's.
  init(source: AnyObject, storage: UnsafeMutableRawPointer, id: Int) {
    owner = Unmanaged.passUnretained(source)
    kind = .source
    hearsWillSet = false
    hearsDidSet = false
    isToldOfSources = false
    changeNeeds = .nothing
    sourceStorage = storage
    sourceID = Int32(truncatingIfNeeded: id)
    noteCached()
  }

  /// The node this memory belongs to (not a source's).
  var node: ReactiveNode { unsafeDowncast(owner.takeUnretainedValue(), to: ReactiveNode.self) }

  /// Whether a change arrived since the latest recomputation.
  var isStale: Bool { @inline(__always) get { !updateReasons.isDisjoint(with: [.dirty, .pending]) } }

  /// Whether this stale computation is left without subscribers (and not cancelled): no
  /// change would reach it to find it unobserved, since a propagation stops at a stale
  /// node, so it must retire now (see ``Computation/retireUnobserved(announces:)``).
  var isStaleAndUnobserved: Bool {
    @inline(__always) get { isComputation && subs == nil && isStale && !cancelled }
  }

  /// Whether the value must be brought up to date before it is read (a stopped one
  /// computes at every read).
  var needsUpdate: Bool { @inline(__always) get { !updateReasons.isEmpty } }

  /// Whether a pull must recompute the value rather than look at its inputs first:
  /// anything but `pending` alone (or a run under way elsewhere, see
  /// ``isComputedElsewhere(than:)``).
  var mustRecompute: Bool { @inline(__always) get { !updateReasons.subtracting(.pending).isEmpty } }

  /// Whether another thread than `thread` is recomputing it. Its flags are clear then,
  /// but its new value and version are not stored yet: a reader must wait for that run
  /// (on the update lock), not take the old version for the current one.
  @inline(__always)
  func isComputedElsewhere(than thread: UInt) -> Bool { runningThread != 0 && runningThread != thread }

  /// ``needsUpdate``, or a recomputation under way on another thread than `thread`.
  @inline(__always)
  func needsUpdate(on thread: UInt) -> Bool { needsUpdate || isComputedElsewhere(than: thread) }

  /// Whether the value changed since `version` was read, or may have.
  func hasChanged(since version: UInt64, thread: UInt) -> Bool {
    self.version != version || isStale || isComputedElsewhere(than: thread)
  }

  var computation: Computation { unsafeDowncast(owner.takeUnretainedValue(), to: Computation.self) }

  /// Whether this is the source of property `id` of the object whose storage is at
  /// `storage` (and the object lives).
  @inline(__always)
  func isSource(of storage: UnsafeMutableRawPointer, _ id: Int) -> Bool {
    sourceStorage == storage && sourceID == Int32(truncatingIfNeeded: id) && kind == .source
  }

  // Pins: a pull keeps the nodes it walks into alive without a Swift reference each.

  /// Keeps the node alive while a pull stands on it or waits for it, with the lock
  /// left in between. Called on a node reached through a link, under the lock: the
  /// link holds the node then, and from now on a dropped link's reference to it is held
  /// rather than released (`Graph.releaseLinkReference(_:work:)`), so the node
  /// outlives the pin. Costs a count under the lock, not a retain and a release.
  @inline(__always)
  mutating func pin() { pins &+= 1 }

  /// Ends a ``pin()``. Returns how many link references to release, with the lock
  /// left, for the links dropped while the node was pinned (0 almost always); the node
  /// may be freed by those releases.
  @inline(__always)
  mutating func unpin() -> UInt32 {
    pins &-= 1
    guard pins == 0, _slowPath(heldReleases != 0) else { return 0 }
    defer { heldReleases = 0 }
    return heldReleases
  }
}
