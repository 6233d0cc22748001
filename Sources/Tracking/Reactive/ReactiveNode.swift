import CTrackingSupport

/// A node of the reactive graph: something that runs a closure tracked, remembers what
/// the run read, and hears when that changes. The one engine under everything that
/// re-runs code:
///
/// - **Sources** are tracked properties (``PropertySource``): a node that read one has a
///   link to it, made by the read itself, and a write propagates from it.
/// - **Computations** (``Computation``, behind ``Derived``) cache a value. They are
///   sources too, for whoever reads them: a node that read one has a link to it in
///   the graph (see ``Graph``).
/// - **Reactions** (``Reaction``, behind `observe`, `withContinuousTracking`,
///   ``TrackedValues``, the ``RenderLoop`` and the Combine bridge) re-run a closure, or
///   tell their owner that it should.
///
/// **Push, then pull.** A write marks the nodes that read the property *dirty* (an
/// input surely changed); a dirty or pending computation marks the nodes that read it
/// *pending* (an input may have changed) — once: a node already dirty or pending
/// passes nothing on, so however many paths lead to a node, it hears of a change once.
/// Reactions reached this way wait in the writing thread's ``NotificationBatch``, which
/// runs them when the outermost write or ``withTransaction(_:)`` ends. Before a
/// pending node runs it *pulls*: it brings the computations it read up to date, in the
/// order it read them, and runs only if one of their values really changed (see
/// ``Computation/ensureCurrent(_:)``). So each computation runs at most once per
/// change, only when something it read changed, and never sees a mix of old and new
/// inputs.
///
/// **One rule for a run's own writes.** A change reported on the thread that is running
/// the node (its closure, its computation) is the node's own, and does not make it
/// dirty — as Apple's tracking ignores writes made inside `apply`. (A change made on
/// that thread by a one-shot scope nested in the run, before the run linked to what
/// that scope read, is discounted the same way by the scope's change epochs; see
/// ``AccessList/merge(_:)``.) A change that reaches the node through a computation it
/// read leaves that computation stale, and a stale computation passes nothing on: so
/// the run's end brings it up to date (``settleInputs()``), or the node would never hear
/// of its inputs' later changes. The own change is not forgotten: the node's links keep
/// the versions it read, so its next run for another cause counts it.
///
/// **Links, not observers.** A run reads through a cursor over its node's links: a
/// run that reads what the previous one read, in the same order, keeps its links and
/// allocates nothing; its end drops the links it did not read again (see
/// ``Graph/recordRead(_:by:version:first:work:)``). So what a node depends on is always
/// what its latest run read, and nothing is compared or installed at its end.
///
/// **Lifetime.** A link holds both its nodes strongly. The cycle lasts while the links
/// exist: cancelling the node drops its links, so a cancelled node, and its closure,
/// are released. The public object a user holds (a ``TrackingToken``, a ``Derived``)
/// owns its node and cancels it when released.
///
/// **State and locks.** The node's own state is in ``NodeState``, under the node's
/// lock; its links and a computation's flags and version are in its ``GraphNode``,
/// under the graph lock (see ``Graph``). Neither is held while calling out (user code,
/// another node, a registrar's observers). Lock order: a node's lock, a tracked
/// object's, the graph lock, a derived value's registrar's (see ``Graph``); never two
/// nodes'. A computation also has an update lock, held while it recomputes (see
/// ``Computation``).
package class ReactiveNode: LifetimeOwner, @unchecked Sendable {
  // `@unchecked Sendable`: the mutable state is behind `state`'s lock; the rest is
  // immutable after `init`.

  /// The node's state, under its lock, in one allocation with its graph node.
  let state: NodeMemory

  /// The node's place in the reactive graph: its links, and a computation's flags and
  /// version. Under the graph lock (see ``Graph``). In the memory of ``state``.
  @inline(__always) var graph: GraphRef { state.graph }

  /// How much of a change this node keeps (its runs' events, its `lastEvent`).
  let changeNeeds: TrackingObserver.Handler.Needs

  /// Whether the node hears the will-sets of the properties it read (a reaction that
  /// runs at them).
  let hearsWillSet: Bool
  /// Whether it hears their did-sets (all but a reaction to deallocations only).
  let hearsDidSet: Bool

  /// Whether the node records the causes of its runs (introspection was on when it
  /// was made): it then hears will-sets too and reads the changed values.
  let introspects: Bool

  /// Whether the node is a ``Computation``: a propagation tests it at every edge, where
  /// a dynamic cast would cost more than the rest of the step.
  let isComputation: Bool

  /// `site`: where a user started it (for the leak check).
  init(
    changeNeeds: TrackingObserver.Handler.Needs, hearsWillSet: Bool, hearsDidSet: Bool = true,
    isComputation: Bool = false, site: SourceSite? = nil
  ) {
    introspects = Introspection.isOn
    self.changeNeeds = introspects ? .source : changeNeeds
    self.hearsWillSet = hearsWillSet
    self.hearsDidSet = hearsDidSet
    self.isComputation = isComputation
    state = NodeMemory(NodeState())
    super.init()
    graph.initialize(to: GraphNode(node: self, kind: isComputation ? .computation : .reaction))
    Introspection.register(self)
    LifetimeRecorder.register(self, kind: isComputation ? .derivedValue : .observation, site: site)
  }

  // MARK: What a node hears (overridden by computations and reactions)

  /// A property this node read is about to change (only for nodes that hear
  /// will-sets), on the mutating thread.
  func sourceWillChange(_ change: ChangeDescription) {}

  /// A property this node read has changed, on the mutating thread, inside a batch.
  /// Returns whether the node must wait in that batch's queue: the caller queues it,
  /// with the reference to the node it holds (``NotificationBatch/enqueue(queued:)``),
  /// rather than the node retaining itself for the queue while the caller releases its
  /// own reference.
  func sourceDidChange(_ change: ChangeDescription) -> Bool { false }

  /// ``sourceDidChange(_:)`` when this node is the change's only observer and the
  /// change was made outside any batch: what the node would queue would be the first
  /// and only entry of a batch opened for this change, so a reaction may run now
  /// instead. Unless the caller opened that batch (it does for a change that keeps its
  /// source), the node opens it, and only if it acts on the change (a reaction that
  /// waits for its owner's run, told already, does nothing here).
  func sourceDidChangeAlone(_ change: ChangeDescription) {
    NotificationBatch.run { if sourceDidChange(change) { NotificationBatch.enqueue(queued: self) } }
  }

  /// A computation this node read may have changed (it is dirty or pending), on the
  /// thread that is propagating, inside a batch. `deferred`: the change has not
  /// happened yet (an Apple object's will-set), so a run it causes must be scheduled,
  /// not started on this thread. `computation` is passed owned: a node that keeps it
  /// (in the change's description) takes the caller's reference rather than retaining
  /// it again. Returns whether the node must wait in the batch's queue, as
  /// ``sourceDidChange(_:)`` does.
  func computationMayHaveChanged(_ computation: consuming Computation, deferred: Bool) -> Bool { false }

  /// ``computationMayHaveChanged(_:deferred:)`` for a change made outside any batch
  /// that reaches this node alone (the propagation found nothing else to do): as with
  /// ``sourceDidChangeAlone(_:)``, a reaction may act at once, in a batch it opens,
  /// rather than wait in one opened for it and be taken back out.
  func computationMayHaveChangedAlone(_ computation: consuming Computation) {
    let computation = computation
    NotificationBatch.run {
      if computationMayHaveChanged(computation, deferred: false) { NotificationBatch.enqueue(queued: self) }
    }
  }

  /// An Apple `@Observable` property read by the latest run is about to change (with
  /// ``TrackingInterop/observesAppleObservables`` on), on the mutating thread.
  ///
  /// Not called for our own objects relayed to Apple (a nested node's run relays its
  /// reads into the Apple tracking around it): their changes come through our own
  /// observers. Apple's tracking is spent then, so an Apple object read by the same
  /// run is no longer watched if that change causes no run (a nested derived value
  /// recomputed to an equal value), until the next run.
  func appleSourceWillChange() {}

  /// Called by the batch that queued this node, when it drains.
  func flush() {}

  /// An object this node read was deallocated, on the deallocating thread (reactions
  /// only: see ``RegistrarStorage/detachSources(_:)``). Nodes that asked for deinit
  /// events hear it as a change.
  func sourceDeallocated() {}

  // MARK: The own-writes rule

  /// Whether a change reported now, on this thread, is one of the node's own: the
  /// thread is running the node. Under the lock. (A computation's running thread is in
  /// its ``GraphNode``, where the propagation applies the same test under the graph
  /// lock; a reaction's is here, until reactions' flags move into the graph too.)
  @inline(__always)
  static func isOwnChange(_ state: borrowing NodeState, thread: UInt) -> Bool {
    state.runningThread == thread
  }

  // MARK: Cancelling

  /// Stops the node: it does not run again, and its links to what it read are dropped.
  /// Returns whether this call cancelled it.
  @discardableResult
  package func cancel() -> Bool {
    let (first, dropped) = state.withLock { state in
      let first = !state.cancelled
      state.cancelled = true
      return (first, dropDependencies(cancelling: true))
    }
    if !dropped.isEmpty { dropped.perform() }
    return first
  }

  /// Whether the node was cancelled.
  var isCancelled: Bool { state.withLock { $0.cancelled } }

  deinit {
    Introspection.unregister(self)
    // No link names this node any more (a link holds both its nodes), and none of its
    // own is left: its runs ended, and whoever released it last dropped them. No pull
    // has it pinned: a pin holds the references of the links dropped meanwhile.
    assert(graph.pointee.pins == 0, "A node was freed while a pull had it pinned.")
    Graph.freeReadIndex(of: graph)
    // The memory goes with `state`.
    graph.deinitialize(count: 1)
  }
}

/// The mutable state of a ``ReactiveNode``, under its lock.
struct NodeState {
  var cancelled = false
  /// The thread running the node's closure right now, or 0 (see "the own-writes rule").
  var runningThread: UInt = 0
  /// What the latest run owns was ended, or is being ended, by a cancellation (see
  /// ``Reaction``'s "Ownership").
  var ownedEnded = false
  /// The reaction's ``TrackingToken`` was cancelled (by its user, or by its release):
  /// the token's own flag, kept here so that a token is one allocation.
  var tokenCancelled = false
  /// A property the node read changed since its latest run.
  var dirty = false
  /// A computation the node read may have changed since its latest run: it must
  /// pull before it runs, and runs only if that computation's value changed.
  var pending = false
  /// The thread whose batch's queue the node waits in, or 0. A node is queued once
  /// per batch, whatever the number of paths that reach it; a change made in another
  /// thread's batch queues it there too, so that no thread's change waits for another
  /// thread's batch (a transaction held open elsewhere) to end.
  var queuedOn: UInt = 0

  /// The node waits in the queue of `thread`'s batch.
  func isQueued(on thread: UInt) -> Bool { queuedOn == thread }

  /// The batch of `thread` drained the node: it waits in no queue, unless another
  /// batch queued it since.
  mutating func leaveQueue(of thread: UInt) {
    if queuedOn == thread { queuedOn = 0 }
  }

  /// The thread whose batch made the changes since the latest run began (0: none), or
  /// `changedInSeveralBatches`. When a batch drains, a reaction runs for the changes of
  /// that batch, not for those of another thread's batch that is still open (a
  /// transaction): that batch runs it when it ends.
  ///
  /// **Invariant** (a reaction): while it is stale, a run of it is under way or
  /// scheduled, or it waits in the queue of a batch that made one of its changes. Every
  /// change a thread tells it of is marked as that thread's batch's, will-sets too, so a
  /// drain never passes over a change of its own batch; a change that finds it stale
  /// with none of these to count on would be lost, and so would every later one (each
  /// takes it for a run already on its way).
  var changedInBatchOf: UInt = 0
  var changedInSeveralBatches = false

  mutating func markChanged(inBatchOf thread: UInt) {
    if changedInBatchOf == 0 {
      changedInBatchOf = thread
    } else if changedInBatchOf != thread {
      changedInSeveralBatches = true
    }
  }

  /// Whether the batch of `thread` changed something since the latest run began.
  func changed(inBatchOf thread: UInt) -> Bool { changedInSeveralBatches || changedInBatchOf == thread }

  /// What few nodes use, made on first use so that every node's state stays small:
  /// with it inline, a reaction's memory block was 368 bytes; it is 304. Never copied:
  /// the state lives in its node's memory, and the box is that state's alone.
  private var rare: RareNodeState?

  /// The parts of a node's state that few nodes use (see ``rare``).
  final class RareNodeState {
    var causes = RunCauses()
    var name: String?
    var unconfirmedChange: KeptChange?
  }

  private mutating func rareMadeIfNeeded() -> RareNodeState {
    if let rare { return rare }
    let made = RareNodeState()
    rare = made
    return made
  }

  /// Why the node ran last, and why it will run next (kept only while introspection
  /// is on; see ``TrackingIntrospection``).
  var causes: RunCauses {
    get { rare?.causes ?? RunCauses() }
    _modify { yield &rareMadeIfNeeded().causes }
  }

  /// A run begins: the causes heard since the latest one become its causes (nothing to
  /// do for a node that never recorded any).
  func causesBeginRun() {
    rare?.causes.beginRun()
  }

  /// What the node is called in a ``TrackingGraph``.
  var name: String? {
    get { rare?.name }
    set {
      guard newValue != nil || rare != nil else { return }
      rareMadeIfNeeded().name = newValue
    }
  }
  // A reaction's runs (see `Reaction`).

  /// The latest change of a kind the options asked for, for the next run.
  var pendingChange: KeptChange?
  /// The change of the latest run.
  var lastChange: KeptChange?
  /// The change of a run under way that pulls first (only computations it read may
  /// have changed): it becomes `lastChange` if the pull confirms it, and is dropped if
  /// not. It stays in `pendingChange` while `pendingIsUnconfirmed`, and is set aside
  /// here only when another change arrives during the pull (``keepPending(_:requested:)``):
  /// most pulls find nothing changed, and then nothing was moved. (Kept with the rare
  /// parts of the state.)
  var unconfirmedChange: KeptChange? {
    get { rare?.unconfirmedChange }
    set {
      guard newValue != nil || rare != nil else { return }
      rareMadeIfNeeded().unconfirmedChange = newValue
    }
  }

  /// Takes ``unconfirmedChange`` out.
  func takeUnconfirmedChange() -> KeptChange? {
    rare?.unconfirmedChange.take()
  }
  /// `pendingChange` is the change of the run under way that pulls first, not one for
  /// a next run (see `unconfirmedChange`).
  var pendingIsUnconfirmed = false
  /// A run is scheduled on the closure's isolation (or its owner was told).
  var scheduled = false
  /// The next run must be scheduled, not started on the thread that ends the run under
  /// way: its change has not happened yet (an Apple object's will-set).
  var nextRunIsScheduled = false

  /// Whether a change arrived since the latest run.
  var isStale: Bool { dirty || pending }
}

extension ReactiveNode: TrackingCancellable {}
