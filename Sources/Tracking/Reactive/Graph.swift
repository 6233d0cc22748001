import CTrackingSupport

/// The reactive graph: the sources' versions (tracked properties, see
/// ``PropertySource``), the computations' flags, versions and values' bookkeeping, and
/// the edges between nodes, under one lock.
///
/// **One lock for the graph.** Everything in a ``GraphNode`` and a ``GraphLink`` is
/// read and written only with the graph lock held (``Graph/enter()``). A propagation
/// or a pull then walks many nodes in one critical section, through plain pointers:
/// no node's lock per step and no retain per node it passes. The lock is never held
/// while calling out: not a closure, not a reaction, not a hook, not the release of a
/// node. What a walk finds that needs a call, it collects in ``GraphWork``, which the
/// caller performs once it has left the lock.
///
/// **Lock order**: a node's lock (``ReactiveNode/state``), a tracked object's lock (a
/// write propagates from its property's source under it:
/// ``Graph/propagateWrite(from:thread:work:)``), the graph
/// lock, a derived value's registrar lock (its hooks, told of a change of its
/// subscribers). Never the graph lock, then a node's or a tracked object's.
///
/// **Edges.** A node that read a source or a computation in its latest run has one link
/// to it: on the node's list of dependencies (in the order the run first read them,
/// with the version it saw), and on the source's or computation's list of subscribers. A link holds both
/// ends strongly: a node is released only when no link names it, so a walk under the
/// lock never meets freed memory. A pull that leaves the lock while it stands on a
/// node pins it (``GraphNode/pin()``): a link dropped meanwhile leaves its reference
/// to the node held until the pull leaves it. Links are made, moved and dropped only
/// for their subscriber: by its run as it reads
/// (``Graph/recordRead(_:by:version:first:work:)``)
/// and when the run ends (``Graph/endRun(of:work:)``), and when it is cancelled or
/// retires (``Graph/dropDependencies(of:work:)``). The end of a run and a drop move
/// the subscriber's `epoch`, so a pull that left the lock knows whether the link it
/// stood on may have moved or gone. (While a run is under way, a pull does not walk
/// the node's links: it waits for the run.)
///
/// **The nodes' own state** (reactions' runs, introspection) stays in their
/// ``NodeState``, under their lock.
enum Graph {
  /// Takes the graph lock.
  @inline(__always) static func enter() { tracking_graph_enter() }

  /// Releases the graph lock.
  @inline(__always) static func leave() { tracking_graph_leave() }

  /// Runs `body` with the graph lock held.
  @inline(__always)
  static func withLock<R>(_ body: () -> R) -> R {
    enter()
    defer { leave() }
    return body()
  }

  /// Releases the `count` link references held for `node` while a pull had it pinned
  /// (see ``GraphNode/unpin()``), with the graph lock left for it: the releases may
  /// free the node and run deinits. Called, and returns, with the lock held; the
  /// caller's walk must then treat what it stands on as it does after a
  /// recomputation (the links may have moved).
  @inline(never)
  static func releaseHeld(_ node: Unmanaged<AnyObject>, _ count: UInt32) {
    leave()
    for _ in 0..<count { node.release() }
    enter()
  }
}

/// The computations a wide run read, up to its link `last` (see
/// ``GraphNode/readIndex``).
struct ReadIndex {
  var read: Set<GraphRef>
  var last: LinkRef
}

typealias GraphRef = UnsafeMutablePointer<GraphNode>
typealias LinkRef = UnsafeMutablePointer<GraphLink>

/// An edge: `sub`'s latest run read `dep` (a computation), at `version`. On two lists:
/// `sub`'s dependencies and `dep`'s subscribers. Under the graph lock.
struct GraphLink {
  let dep: GraphRef
  let sub: GraphRef
  var version: UInt64
  /// When the link was made, among everything installed on tracked properties (see
  /// ``TrackingObserver/installOrder``): a write of a source tells its subscribers and
  /// the one-shot observers of the property in this order.
  let order: UInt64
  var nextDep: LinkRef?
  var prevSub: LinkRef?
  var nextSub: LinkRef?
}

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
  /// included); the others kept their links as they were (diagnostics; wraps).
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

  // A run's:

  /// A run of this node is reading through the cursor: its links are the run's to
  /// change until it ends (a cancellation or a retirement leaves them to it).
  var running = false
  /// The run under way made, moved or dropped a link.
  var relinked = false

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

/// What a walk under the graph lock found to do once the lock is left: the calls out
/// (nodes to tell, computations to retire or to queue for their one-shot observers,
/// hooks) and the releases of the nodes that dropped links held. Each node in it is
/// retained, and released by ``perform(_:)``, which must be called once when the work
/// is not empty.
///
/// A trivial value: most walks find nothing to do (a read, a run that keeps its
/// links), and then it costs nothing to make or to drop. The lists are allocated at
/// the first entry.
struct GraphWork {
  /// A node to tell of a change: of `computation`, or, when it is `nil`, of the
  /// property whose write made this work (see ``Graph/propagateWrite(from:thread:work:)``);
  /// `order` is the installation number of the link through which the write reached
  /// it (0 for a change that is not a write).
  typealias Tell = (node: Unmanaged<AnyObject>, computation: Unmanaged<AnyObject>?, order: UInt64)

  /// The first node to tell: held inline, as most propagations reach one reaction.
  private var firstTell: Tell?
  private var lists: UnsafeMutablePointer<Lists>?
  /// The changes found were will-sets of Apple objects: runs are scheduled.
  var deferred = false
  /// How much of the write's change the nodes told of it need described.
  private(set) var needs = TrackingObserver.Handler.Needs.nothing
  /// The installation number of the link a write's propagation is passing through: the
  /// nodes it reaches are told in that order (see ``Tell``).
  var order: UInt64 = 0

  private struct Lists: ~Copyable {
    /// The nodes to tell after the first, in the order found.
    var tells = SmallList<Tell>()
    /// Computations that nobody subscribes to any more, and whether they announce.
    var unobserved = SmallList<(computation: Unmanaged<AnyObject>, announces: Bool)>()
    /// Computations that announce their changes and have subscribers.
    var announcing = SmallList<Unmanaged<AnyObject>>()
    var hooks = SmallList<HookTable.Transitions>()
    /// The storages whose sources' hooks must look at the sources again.
    var settles = SmallList<StorageHandle>()
    /// Nodes released by dropped links, a link's two in one entry: dropping one link
    /// is then one entry, which the list holds without memory of its own.
    var releases = SmallList<(Unmanaged<AnyObject>?, Unmanaged<AnyObject>?)>()

    /// Frees the lists' memory (see ``SmallList/deallocate()``).
    mutating func deallocate() {
      tells.deallocate()
      unobserved.deallocate()
      announcing.deallocate()
      hooks.deallocate()
      settles.deallocate()
      releases.deallocate()
    }
  }

  init() {}

  var isEmpty: Bool { lists == nil && firstTell == nil }

  /// The number of nodes to tell (for spies).
  var count: Int { firstTell == nil ? 0 : 1 + (lists?.pointee.tells.count ?? 0) }

  private mutating func withLists(_ body: (inout Lists) -> Void) {
    if lists == nil {
      // The process's spare block if there is one (see `tracking_spare_work_block`):
      // most walks that need lists need them once, and an exchange costs less than an
      // allocation and a free.
      let block =
        tracking_take_spare_work_block()?.assumingMemoryBound(to: Lists.self) ?? .allocate(capacity: 1)
      block.initialize(to: Lists())
      lists = block
    }
    body(&lists.unsafelyUnwrapped.pointee)
  }

  /// Frees a block of lists' memory (deinitialized), or keeps it as the spare one.
  private static func free(_ block: UnsafeMutablePointer<Lists>) {
    if !tracking_give_spare_work_block(block) { block.deallocate() }
  }

  private mutating func append(_ entry: Tell) {
    if firstTell == nil {
      firstTell = entry
    } else {
      withLists { $0.tells.append(entry) }
    }
  }

  /// `node` (a reaction) reached by a propagation from `computation`.
  mutating func tell(_ node: GraphRef, of computation: GraphRef) {
    append((node: node.pointee.owner.retain(), computation: computation.pointee.owner.retain(), order: order))
  }

  /// `node`, which read the written property, is told of the write with its
  /// description.
  mutating func tellOfWrite(_ node: GraphRef) {
    if node.pointee.changeNeeds > needs { needs = node.pointee.changeNeeds }
    append((node: node.pointee.owner.retain(), computation: nil, order: order))
  }

  mutating func unobserved(_ computation: GraphRef) {
    let entry = (computation.pointee.owner.retain(), computation.pointee.announces)
    withLists { $0.unobserved.append(entry) }
  }

  mutating func announce(_ computation: GraphRef) {
    let node = computation.pointee.owner.retain()
    withLists { $0.announcing.append(node) }
  }

  mutating func deliver(_ transitions: HookTable.Transitions?) {
    guard let transitions else { return }
    withLists { $0.hooks.append(transitions) }
  }

  /// The hooks of a source's storage must look at its sources again (one gained its
  /// first subscriber or lost its last).
  mutating func settleHooks(_ handle: StorageHandle) { withLists { $0.settles.append(handle) } }

  /// Releases the references of a dropped link (those not held for a pin) once the
  /// lock is left.
  mutating func release(_ dep: Unmanaged<AnyObject>?, _ sub: Unmanaged<AnyObject>?) {
    guard dep != nil || sub != nil else { return }
    withLists { $0.releases.append((dep, sub)) }
  }

  /// Does the work, with the graph lock released. `change` describes the write that
  /// made it, for the nodes told of it (as far as ``needs`` asks); `willSet`: the write
  /// is about to happen (the nodes collected by
  /// ``Graph/collectWillSetHearers(of:work:)`` hear its will-set). `before` is called
  /// with each node's installation number before the node is told (the write's one-shot
  /// observers installed earlier are told there).
  func perform(
    _ change: ChangeDescription = .none, willSet: Bool = false, before: ((UInt64) -> Void)? = nil
  ) {
    guard let lists else {
      if let firstTell {
        before?(firstTell.order)
        Self.tell(firstTell, change, willSet: willSet, deferred: deferred)
      }
      return
    }
    performInFull(lists, change, willSet: willSet, before: before)
  }

  /// ``perform(_:willSet:before:)`` for the will-set of a write, kept out of line: a
  /// registrar's `willSet` calls it in two places, and inlined there it made every
  /// will-set dearer, those that tell no node included.
  @inline(never)
  func performWillSet(_ change: ChangeDescription, before: ((UInt64) -> Void)? = nil) {
    perform(change, willSet: true, before: before)
  }

  /// ``perform(_:willSet:before:)`` for work that holds lists: kept out of line, so
  /// that the callers, which mostly have one node to tell, stay small.
  @inline(never)
  private func performInFull(
    _ lists: UnsafeMutablePointer<Lists>, _ change: ChangeDescription, willSet: Bool,
    before: ((UInt64) -> Void)?
  ) {
    // Used in place (moved out, the lists were copied word by word), and freed last.
    defer {
      lists.pointee.deallocate()
      lists.deinitialize(count: 1)
      Self.free(lists)
    }
    let work = UnsafePointer(lists)
    work.pointee.hooks.forEach { $0.deliver() }
    work.pointee.settles.forEach { $0.withStorage { $0.settleSourceHooks() } }
    // One-shot trackings observe a computation in its registrar; only one that
    // announces its changes can have any.
    work.pointee.announcing.forEach { node in
      let computation = unsafeDowncast(node.takeUnretainedValue(), to: Computation.self)
      if computation.registrar.storage.hasOneShotObservers(of: 0) { NotificationBatch.enqueue(computation) }
    }
    work.pointee.unobserved.forEach { node, announces in
      let computation = unsafeDowncast(node.takeUnretainedValue(), to: Computation.self)
      if announces && computation.registrar.storage.hasOneShotObservers(of: 0) {
        NotificationBatch.enqueue(computation)
      } else {
        computation.retire()
      }
    }
    let deferred = deferred
    if let firstTell {
      before?(firstTell.order)
      Self.tell(firstTell, change, willSet: willSet, deferred: deferred)
    }
    work.pointee.tells.forEach {
      before?($0.order)
      Self.tell($0, change, willSet: willSet, deferred: deferred)
    }
    work.pointee.announcing.forEach { $0.release() }
    work.pointee.unobserved.forEach { $0.computation.release() }
    work.pointee.releases.forEach {
      $0.0?.release()
      $0.1?.release()
    }
  }

  /// Whether the work is one node to tell, and nothing else.
  var isOneTell: Bool { lists == nil && firstTell != nil }

  /// Does work that ``isOneTell``, for a change made outside any batch: the node is
  /// the only thing a batch opened for the change would run, so it is told so
  /// (``ReactiveNode/sourceDidChangeAlone(_:)``,
  /// ``ReactiveNode/computationMayHaveChangedAlone(_:)``). Never deferred.
  func tellAlone(_ change: ChangeDescription = .none) {
    let tell = firstTell.unsafelyUnwrapped
    tell.node._withUnsafeGuaranteedRef { node in
      let node = unsafeDowncast(node, to: ReactiveNode.self)
      if let computation = tell.computation {
        node.computationMayHaveChangedAlone(unsafeDowncast(computation.takeRetainedValue(), to: Computation.self))
      } else {
        node.sourceDidChangeAlone(change)
      }
    }
    tell.node.release()
  }

  /// Tells `tell`'s node of its change, and releases the node. The reference to a
  /// computation is handed over (see ``ReactiveNode/computationMayHaveChanged(_:deferred:)``).
  private static func tell(_ tell: Tell, _ change: ChangeDescription, willSet: Bool, deferred: Bool) {
    tell.node._withUnsafeGuaranteedRef { node in
      let node = unsafeDowncast(node, to: ReactiveNode.self)
      if let computation = tell.computation {
        node.computationMayHaveChanged(
          unsafeDowncast(computation.takeRetainedValue(), to: Computation.self), deferred: deferred)
      } else if willSet {
        node.sourceWillChange(change)
      } else {
        node.sourceDidChange(change)
      }
    }
    tell.node.release()
  }
}
