import CTrackingSupport

/// A node that caches a value computed from what it reads: the engine of ``Derived``.
/// Non-generic, so that a change costs specialized code whatever the value's type; the
/// value is in ``DerivedComputation``, and its closure and comparison in
/// ``DerivedValueOperations``, specialized where the `Derived` is made.
///
/// **States** (in ``NodeState``): *current* (the cache holds the value of the inputs as
/// they are); *dirty* (an input surely changed: recompute at the next pull); *pending*
/// (a computation it read may have changed: pull that one first, and recompute only if
/// its value did change). Only an input change (push) makes it stale; only a pull makes
/// it current.
///
/// **Versions.** `version` grows by one each time a recomputation yields a value that
/// differs from the previous one (by the value's rule: `==` for an `Equatable` value,
/// every time for others, or the caller's). A reader notes the version it read; a
/// pending reader runs only if one of the versions it noted has moved. That is the
/// equality cut-off: a change that leaves a value equal stops there.
///
/// **Only while observed.** A computation that nobody observes any more stops
/// observing its inputs at their next change, or at once if one has changed since it
/// was last computed (it *retires*: its links leave its inputs' lists of subscribers,
/// it stays dirty), and observes them again at its next read (its recomputation puts
/// the links back, see ``GraphNode/retired``).
///
/// **Announcing.** A computation read by a one-shot tracking, or relayed to Apple's
/// registrar (SwiftUI), also announces its changes through its registrar, with the
/// timing of a stored property: `willSet` while ``Derived/value`` still returns the old
/// value, then `didSet`. Since it changes when it is recomputed, that happens when the
/// batch that changed an input drains (it queues itself to be pulled then); its inputs
/// already hold their new values.
///
/// **One update at a time.** Recomputing holds the update lock, so two threads reading
/// a stale value compute it once. Reading a computation from its own closure is a cycle,
/// reported as an error.
package class Computation: ReactiveNode, @unchecked Sendable {
  /// The registrar of the value: the one-shot trackings that read it install their
  /// observers here, and it relays to Apple's registrar. The nodes that read it are its
  /// subscribers in the graph instead (see ``Graph``).
  let registrar = TrackingRegistrar()
  /// Held while recomputing (see "One update at a time").
  /// In memory of its own, so that taking it retains nothing.
  fileprivate let updateLock: UnsafeMutablePointer<tracking_lock>

  init(site: SourceSite? = nil) {
    updateLock = .allocate(capacity: 1)
    updateLock.initialize(to: tracking_lock())
    tracking_lock_init(updateLock)
    super.init(changeNeeds: .nothing, hearsWillSet: false, isComputation: true, site: site)
  }

  // MARK: Pushed (on the mutating thread)

  /// Heard only to read the old value (introspection).
  override final func sourceWillChange(_ change: ChangeDescription) {
    recordCause(.willSet, change)
  }

  override final func sourceDidChange(_ change: ChangeDescription) -> Bool {
    recordCause(.didSet, change)
    becomeStale(dirty: true, deferred: false)
    return false
  }

  override final func computationMayHaveChanged(_ computation: consuming Computation, deferred: Bool) -> Bool {
    if introspects { recordCause(.didSet, .computation(ComputationChange(computation: computation))) }
    becomeStale(dirty: false, deferred: deferred)
    return false
  }

  /// An Apple object read by the latest recomputation is about to change: it has not
  /// changed yet, so the value is recomputed at every read, and not cached, until an
  /// input of ours reports a did-set (Apple's public API reports nothing after a
  /// change); the readers' runs are scheduled rather than started here.
  override final func appleSourceWillChange() {
    Graph.withLock { graph.pointee.appleInFlight = true }
    becomeStale(dirty: true, deferred: true)
  }

  /// Marks this computation stale and, if it was current, passes the change on: its
  /// subscribers become pending (once: a stale one passes nothing on), and the runs of
  /// the reactions among them wait in the current batch.
  final func becomeStale(dirty: Bool, deferred: Bool) {
    let thread = tracking_current_thread()
    var work = GraphWork()
    work.deferred = deferred
    Graph.enter()
    Graph.markStale(graph, dirty: dirty, thread: thread, work: &work)
    Graph.leave()
    if !work.isEmpty { work.perform() }
  }

  /// Stops the computation for good (its scope ended): cancelled, and computed afresh at
  /// every read.
  final func stop() {
    Graph.withLock { graph.pointee.stopped = true }
    cancel()
  }

  /// Whether the computation was stopped by its scope.
  final var isStopped: Bool { Graph.withLock { graph.pointee.stopped } }

  /// How many times the value was computed.
  final var recomputeCount: Int { Graph.withLock { Int(graph.pointee.recomputeCount) } }

  // MARK: Pulled (on the reading thread)

  /// Called when the batch this computation queued itself in drains: brings it up to
  /// date, which announces a change to its one-shot observers.
  override final func flush() {
    let thread = tracking_current_thread()
    state.withLock { $0.leaveQueue(of: thread) }
    Self.ensureCurrent(self)
  }

  /// Brings `root` up to date, and everything it depends on first: a dirty
  /// computation recomputes; a pending one pulls the computations it read, in order,
  /// and recomputes only when one of their versions moved. Iterative (graphs can be
  /// thousands deep): each recomputation then finds its inputs current.
  ///
  /// The walk holds the graph lock, and leaves it only to recompute. Each computation
  /// it walks into is pinned while the walk stands on it or waits for it (a run on
  /// another thread may drop the link that led there meanwhile: the pin holds that
  /// link's reference, see ``GraphNode/pin()``); `root` is the caller's. A reference
  /// held that way is released, with the lock left for it, as the walk leaves the
  /// computation (its release may free the node, and run deinits); the walk then goes
  /// on as after a recomputation.
  static func ensureCurrent(_ root: Computation) {
    let thread = tracking_current_thread()
    Graph.enter()
    guard root.graph.pointee.needsUpdate(on: thread) else {
      Graph.leave()
      return
    }
    bringUpToDate(root.graph, thread: thread)
  }

  /// ``ensureCurrent(_:)`` for a caller that holds the graph lock and found `root` in
  /// need of an update (``GraphNode/needsUpdate(on:)``): returns with the lock
  /// released. Keeping `root` alive is the caller's part. (Through `ensureCurrent`, the
  /// caller left the lock for it to take it again and check again.) Not inlined: its
  /// stack of frames, inlined into a read, made every read set up a larger frame.
  @inline(never)
  static func bringUpToDate(_ root: GraphRef, thread: UInt) {
    withUnsafeTemporaryAllocation(of: PullFrame.self, capacity: PullStack.inlineCapacity) { buffer in
      var waiting = PullStack(buffer)
      pull(root, thread: thread, waiting: &waiting)
      waiting.deallocate()
    }
  }

  /// The walk of ``ensureCurrent(_:)``, entered and left with the graph lock held.
  /// `waiting` holds the computations waiting for an input on the way down.
  private static func pull(_ root: GraphRef, thread: UInt, waiting: inout PullStack) {
    var node = root
    // Where the walk is in `node`'s links (nil: not started), and the node's marks
    // when it started.
    var link: LinkRef? = nil
    var marks: UInt32 = 0
    while true {
      switch pullStep(node, at: &link, marks: &marks, thread: thread) {
      case .descend(let input):
        waiting.push(PullFrame(node: node, link: input, epoch: node.pointee.epoch, marks: marks))
        node = input.pointee.dep
        node.pointee.pin()
        link = nil
        continue
      case .recompute:
        let computation = node.pointee.owner
        // No thread computes it (the common case), or another does: this one waits.
        let claimed: Bool
        if node.pointee.runningThread == 0 {
          claimed = claimUpdate(of: node, thread: thread)
        } else {
          precondition(
            node.pointee.runningThread != thread,
            "A Derived value was read while it was being computed, on the same thread: its closure reads itself (a cycle).")
          claimed = false
        }
        if claimed && _slowPath(node.pointee.retired) { attachLeavingLock(node) } else { Graph.leave() }
        computation._withUnsafeGuaranteedRef {
          let computation = unsafeDowncast($0, to: Computation.self)
          if claimed { computation.recomputeClaimed(thread: thread) } else { computation.update() }
        }
        Graph.enter()
      case .current: break
      }
      // `node` is up to date: back to the node that waited for it, at the link that
      // led to it (unless a run relinked that node meanwhile: then from the start).
      guard let frame = waiting.pop() else { break }
      let releases = node.pointee.unpin()
      if _slowPath(releases != 0) { Graph.releaseHeld(node.pointee.owner, releases) }
      node = frame.node
      marks = frame.marks
      link = node.pointee.epoch == frame.epoch ? frame.link : nil
    }
    Graph.leave()
  }

  private enum PullStep {
    /// The input of this link is stale: bring it up to date first.
    case descend(LinkRef)
    /// Recompute (dirty, or an input's version moved).
    case recompute
    /// Nothing to do (current, or every input kept its version).
    case current
  }

  /// The next step of pulling `node`, from `link` on (from its first link when `nil`),
  /// under the graph lock.
  ///
  /// `marks` is the node's ``GraphNode/staleMarks`` as the walk found it when it
  /// started on the node. An input may change, and mark this node (pending already),
  /// while the walk left the lock to recompute another input: then the walk starts
  /// again rather than make the node current.
  ///
  /// A node that another thread is recomputing is recomputed here too: ``update()``
  /// waits for that run on the update lock, and then finds the value current.
  @inline(__always)
  private static func pullStep(_ node: GraphRef, at link: inout LinkRef?, marks: inout UInt32, thread: UInt) -> PullStep {
    while true {
      guard node.pointee.needsUpdate(on: thread) else { return .current }
      if node.pointee.mustRecompute || node.pointee.isComputedElsewhere(than: thread) {
        return .recompute
      }
      if link == nil {
        link = node.pointee.deps
        marks = node.pointee.staleMarks
      }
      while let current = link {
        let input = current.pointee.dep
        // A stopped input computes at every read: its reader recomputes (and reads it).
        if input.pointee.stopped { return .recompute }
        if input.pointee.needsUpdate(on: thread) { return .descend(current) }
        if input.pointee.version != current.pointee.version { return .recompute }
        link = current.pointee.nextDep
      }
      // Pending, and nothing it read changed: current again, unless it was told of a
      // change since the walk began.
      guard node.pointee.staleMarks == marks else {
        link = nil
        continue
      }
      node.pointee.pending = false
      return .current
    }
  }

  /// Claims the update of `node`, which the pull found in need of one and no thread
  /// computing, in the pull's critical section: takes its update lock without waiting
  /// and marks the recomputation as under way on `thread`, as ``update()`` would in a
  /// critical section of its own. (The update lock is free then, unless a thread that
  /// found the value computed elsewhere holds it a moment to look again: then this
  /// returns `false`, and the caller updates the slow way.)
  @inline(__always)
  private static func claimUpdate(of node: GraphRef, thread: UInt) -> Bool {
    guard tracking_lock_trylock(node.pointee.computation.updateLock) else { return false }
    node.pointee.dirty = false
    node.pointee.pending = false
    node.pointee.runningThread = thread
    return true
  }

  /// Puts the links of `node`, retired, back on its inputs (its recomputation is
  /// claimed), and leaves the graph lock: what that finds to do (an input's hooks) is
  /// done before the recomputation.
  @inline(never)
  private static func attachLeavingLock(_ node: GraphRef) {
    var work = GraphWork()
    Graph.attachDependencies(of: node, work: &work)
    Graph.leave()
    if !work.isEmpty { work.perform() }
  }

  /// Recomputes a value whose update this thread claimed (``claimUpdate(of:thread:)``),
  /// inside a batch, as ``update()`` does, and releases the update lock.
  private func recomputeClaimed(thread: UInt) {
    if NotificationBatch.isOpen {
      recomputeClaimedInBatch(thread: thread)
    } else {
      NotificationBatch.run { recomputeClaimedInBatch(thread: thread) }
    }
  }

  private func recomputeClaimedInBatch(thread: UInt) {
    defer { tracking_lock_unlock(updateLock) }
    if introspects { state.withLock { $0.causesBeginRun() } }
    recompute(thread: thread)
  }

  /// Recomputes under the update lock, unless another thread made the value current
  /// meanwhile. (The pull checked, under the graph lock, that this thread is not
  /// computing the value already: a cycle.)
  ///
  /// Inside a batch, opened first so that it drains after the lock is released: the
  /// did-sets of writes the closure makes run once the value is stored, and a reaction
  /// they run may read this value again.
  private func update() {
    if NotificationBatch.isOpen {
      updateInBatch()
    } else {
      NotificationBatch.run { updateInBatch() }
    }
  }

  private func updateInBatch() {
    let thread = tracking_current_thread()
    tracking_lock_lock(updateLock)
    defer { tracking_lock_unlock(updateLock) }
    var work = GraphWork()
    let mustCompute = Graph.withLock { () -> Bool in
      guard graph.pointee.needsUpdate else { return false }
      // Changes from now on are for the next recomputation.
      graph.pointee.dirty = false
      graph.pointee.pending = false
      graph.pointee.runningThread = thread
      if graph.pointee.retired { Graph.attachDependencies(of: graph, work: &work) }
      return true
    }
    if !work.isEmpty { work.perform() }
    guard mustCompute else { return }
    if introspects { state.withLock { $0.causesBeginRun() } }
    recompute(thread: thread)
  }

  /// The type of the value's owner, for naming it (introspection).
  final var typeName: String { ownerType.map { String(describing: $0) } ?? "Derived" }

  /// The type of the value's owner, as a tracked type (`Derived<Value>`), for naming
  /// what a reader depends on; overridden by ``DerivedComputation``.
  var ownerType: (any Trackable.Type)? { nil }

  /// Which value changed, for the readers that say so (the `value` of the `Derived`);
  /// overridden by ``DerivedComputation``.
  var changeSite: ChangeSite? { nil }

  /// Runs the closure and stores its value; overridden by ``DerivedComputation``.
  /// Called with the update lock held and the run marked on `thread`; must end the run
  /// with ``endRecomputation(_:)``.
  func recompute(thread: UInt) {}

  /// Ends a recomputation that read `reads`, under the graph lock (held): drops the
  /// links the run did not read again, and ends the run. Returns whether the value is
  /// stale already (something it read changed before the run linked to it), which the
  /// caller must pass on once the lock is left (``becomeStale(dirty:deferred:)``).
  @inline(__always)
  final func endRecomputation(_ reads: borrowing AccessList, work: inout GraphWork) -> Bool {
    Graph.endRun(of: graph, work: &work)
    graph.pointee.runningThread = 0
    return reads.changedBeforeLink
  }

  deinit {
    tracking_lock_destroy(updateLock)
    updateLock.deinitialize(count: 1)
    updateLock.deallocate()
  }
}
