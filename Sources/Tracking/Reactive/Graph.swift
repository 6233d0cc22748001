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
/// and when the run ends (``Graph/endRun(of:work:)``), and when it is cancelled
/// (``Graph/dropDependencies(of:work:)``). A computation that retires keeps its links
/// on its own list and takes them off its inputs' (``Graph/detachDependencies(of:work:)``)
/// until its next recomputation is claimed (``Graph/attachDependencies(of:work:)``).
/// The end of a run, a drop and a retirement move
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
/// `sub`'s dependencies and `dep`'s subscribers, except while `sub` is retired: then
/// only on the first (see ``GraphNode/retired``). Under the graph lock.
struct GraphLink {
  let dep: GraphRef
  let sub: GraphRef
  var version: UInt64
  /// When the link was made, among everything installed on tracked properties (see
  /// ``TrackingObserver/installOrder``): a write of a source tells its subscribers and
  /// the one-shot observers of the property in this order. (Made again when the link
  /// is attached again: see ``GraphNode/retired``.)
  var order: UInt64
  var nextDep: LinkRef?
  var prevSub: LinkRef? = nil
  var nextSub: LinkRef? = nil
}
