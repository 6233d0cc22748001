import CTrackingSupport

/// The reactive graph: the computations' flags, versions and values' bookkeeping, and
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
/// write marks the derived values that read it under it: ``WriteMarks``), the graph
/// lock, a derived value's registrar lock (its hooks, told of a change of its
/// subscribers). Never the graph lock, then a node's or a tracked object's.
///
/// **Edges.** A node that read a computation in its latest run has one link to it:
/// on the node's list of dependencies (in the order the run first read them, with the
/// version it saw), and on the computation's list of subscribers. A link holds both
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
/// **The nodes' own state** (observers, reactions' runs, introspection) stays in
/// their ``NodeState``, under their lock.
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
  static func releaseHeld(_ node: Unmanaged<ReactiveNode>, _ count: UInt32) {
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
  var nextDep: LinkRef?
  var prevSub: LinkRef?
  var nextSub: LinkRef?
}

/// A node's place in the graph, in memory its ``ReactiveNode`` allocates and frees.
/// Under the graph lock.
///
/// Every node has dependency links (the computations it read); a computation also has
/// subscribers and the flags and version of its value (see ``Computation``). A
/// reaction's own flags stay in its ``NodeState``.
struct GraphNode {
  /// The node this memory belongs to, unretained: it frees the memory in its deinit,
  /// which only runs once no link names it.
  let owner: Unmanaged<ReactiveNode>
  let isComputation: Bool

  // A computation's value.

  /// An input surely changed: recompute at the next pull.
  var dirty = false
  /// A computation it read may have changed: pull that one first.
  var pending = false
  /// The cache holds a value (current or not).
  var hasCache = false
  /// An Apple object it read is changing: recomputed at every read until an input of
  /// ours reports a did-set.
  var appleInFlight = false
  /// Stopped by its scope: computed afresh at every read.
  var stopped = false
  /// Cancelled: hears no change any more.
  var cancelled = false
  /// Announces its changes through its registrar (see ``Computation``).
  var announces = false
  /// Its observed/unobserved hooks count its subscribers.
  var hooked = false
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
  /// Grows by one each time the value changes.
  var version: UInt64 = 0
  /// The thread recomputing it, or 0: one update at a time, and the own-writes rule.
  var runningThread: UInt = 0
  var recomputeCount = 0
  /// A computation's latest run read no object, and its node keeps no observer: a run
  /// that reads no object either ends here, under the graph lock alone (see
  /// ``DerivedComputation``'s `recompute`). Written where the node's dependencies
  /// change, with its lock held too.
  var readsNoObjects = false

  // Links.

  /// The computations the latest run read, in order.
  var deps: LinkRef?
  /// During a run that has read a computation: the link of its latest read (the run's
  /// cursor), `nil` before the first. The links after it are the previous run's that
  /// this run has not read (yet).
  var depsTail: LinkRef?
  /// A run of this node is reading computations through the cursor: its links are the
  /// run's to change until it ends (a cancellation or a retirement leaves them to it).
  var running = false
  /// During a run that has read many computations: those it read, so that a read the
  /// cursor did not expect finds whether the run made it already without scanning
  /// the run's links (see ``Graph/recordRead(_:by:version:first:work:)``). Freed when
  /// the run ends.
  var readIndex: UnsafeMutablePointer<ReadIndex>?
  /// The nodes whose latest run read this computation.
  var subs: LinkRef?
  var subsTail: LinkRef?

  init(owner: ReactiveNode, isComputation: Bool) {
    self.owner = Unmanaged.passUnretained(owner)
    self.isComputation = isComputation
  }

  /// Whether a change arrived since the latest recomputation.
  var isStale: Bool { dirty || pending }

  /// Whether the value must be brought up to date before it is read (a stopped one
  /// computes at every read).
  var needsUpdate: Bool { dirty || pending || !hasCache || appleInFlight || stopped }

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
/// (reactions to tell, computations to retire or to queue for their one-shot
/// observers, hooks) and the releases of the nodes that dropped links held. Each node
/// in it is retained, and released by ``perform()``, which must be called once when
/// the work is not empty.
///
/// A trivial value: most walks find nothing to do (a read, a run that keeps its
/// links), and then it costs nothing to make or to drop. The lists are allocated at
/// the first entry.
struct GraphWork {
  /// The first reaction to tell and the computation that reached it: held inline, as
  /// most propagations reach one reaction.
  private var firstTell: (reaction: Unmanaged<ReactiveNode>, computation: Unmanaged<ReactiveNode>)?
  private var lists: UnsafeMutablePointer<Lists>?
  /// The changes found were will-sets of Apple objects: runs are scheduled.
  var deferred = false

  private struct Lists {
    /// A reaction reached by a propagation, and the computation that reached it.
    var tells = SmallList<(reaction: Unmanaged<ReactiveNode>, computation: Unmanaged<ReactiveNode>)>()
    /// Computations that nobody subscribes to any more, and whether they announce.
    var unobserved = SmallList<(computation: Unmanaged<ReactiveNode>, announces: Bool)>()
    /// Computations that announce their changes and have subscribers.
    var announcing = SmallList<Unmanaged<ReactiveNode>>()
    var hooks = SmallList<HookTable.Transitions>()
    /// Nodes released by dropped links.
    var releases = SmallList<Unmanaged<ReactiveNode>>()
  }

  init() {}

  var isEmpty: Bool { lists == nil && firstTell == nil }

  private mutating func withLists(_ body: (inout Lists) -> Void) {
    if lists == nil {
      lists = .allocate(capacity: 1)
      lists.unsafelyUnwrapped.initialize(to: Lists())
    }
    body(&lists.unsafelyUnwrapped.pointee)
  }

  mutating func tell(_ reaction: GraphRef, of computation: GraphRef) {
    let entry = (reaction: reaction.pointee.owner.retain(), computation: computation.pointee.owner.retain())
    if firstTell == nil {
      firstTell = entry
    } else {
      withLists { $0.tells.append(entry) }
    }
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

  mutating func release(_ node: Unmanaged<ReactiveNode>) { withLists { $0.releases.append(node) } }

  /// Does the work, with the graph lock released.
  func perform() {
    guard let lists else {
      if let firstTell { Self.tell(firstTell.reaction, of: firstTell.computation, deferred: deferred) }
      return
    }
    let work = lists.move()
    lists.deallocate()
    work.hooks.forEach { $0.deliver() }
    // One-shot trackings observe a computation in its registrar; only one that
    // announces its changes can have any.
    work.announcing.forEach { node in
      let computation = unsafeDowncast(node.takeUnretainedValue(), to: Computation.self)
      if computation.registrar.storage.hasOneShotObservers(of: 0) { NotificationBatch.enqueue(computation) }
    }
    work.unobserved.forEach { node, announces in
      let computation = unsafeDowncast(node.takeUnretainedValue(), to: Computation.self)
      if announces && computation.registrar.storage.hasOneShotObservers(of: 0) {
        NotificationBatch.enqueue(computation)
      } else {
        computation.retire()
      }
    }
    let deferred = deferred
    if let firstTell { Self.tell(firstTell.reaction, of: firstTell.computation, deferred: deferred) }
    work.tells.forEach { Self.tell($0.reaction, of: $0.computation, deferred: deferred) }
    work.announcing.forEach { $0.release() }
    work.unobserved.forEach { $0.computation.release() }
    work.releases.forEach { $0.release() }
  }

  /// Whether the work is one reaction to tell, and nothing else.
  var isOneTell: Bool { lists == nil && firstTell != nil }

  /// Does work that ``isOneTell``, for a change made outside any batch: the reaction
  /// is the only thing a batch opened for the change would run, so it is told so
  /// (``ReactiveNode/computationMayHaveChangedAlone(_:)``). Never deferred.
  func tellAlone() {
    let tell = firstTell.unsafelyUnwrapped
    Self.tell(tell.reaction, of: tell.computation, deferred: false, alone: true)
  }

  /// Tells `reaction` that `computation` may have changed (`alone`: as the only thing
  /// the change reached, see ``tellAlone()``), and releases the reaction. The
  /// reference to the computation is handed over (see
  /// ``ReactiveNode/computationMayHaveChanged(_:deferred:)``).
  private static func tell(
    _ reaction: Unmanaged<ReactiveNode>, of computation: Unmanaged<ReactiveNode>, deferred: Bool, alone: Bool = false
  ) {
    reaction._withUnsafeGuaranteedRef { reaction in
      let computation = unsafeDowncast(computation.takeRetainedValue(), to: Computation.self)
      if alone {
        reaction.computationMayHaveChangedAlone(computation)
      } else {
        reaction.computationMayHaveChanged(computation, deferred: deferred)
      }
    }
    reaction.release()
  }
}
