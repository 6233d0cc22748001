import CTrackingSupport

/// Computations that nobody subscribes to any more, retained, and whether they
/// announce their changes (see ``GraphWork/unobserved(_:)``).
typealias UnobservedComputations = SmallList<(computation: Unmanaged<AnyObject>, announces: Bool)>

/// What a walk under the graph lock found to do once the lock is left: the calls out
/// (nodes to tell, computations to retire or to queue for their one-shot observers,
/// hooks, the inputs to bring up to date at the end of a run that ignored its own
/// change of one) and the releases of the nodes that dropped links held. Each node in it is
/// retained, and released by ``perform(_:)``, which must be called once when the work
/// is not empty (a node told that waits in the batch gets that reference in the queue
/// instead).
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
    var unobserved = UnobservedComputations()
    /// Computations that announce their changes and have subscribers.
    var announcing = SmallList<Unmanaged<AnyObject>>()
    var hooks = SmallList<HookTable.Transitions>()
    /// The storages whose sources' hooks must look at the sources again.
    var settles = SmallList<StorageHandle>()
    /// Nodes released by dropped links, a link's two in one entry: dropping one link
    /// is then one entry, which the list holds without memory of its own.
    var releases = SmallList<(Unmanaged<AnyObject>?, Unmanaged<AnyObject>?)>()
    /// Nodes whose run just ended having ignored its own change of a computation it
    /// read: their inputs must be brought up to date.
    var inputsToSettle = SmallList<Unmanaged<AnyObject>>()

    /// Empties the lists, keeping the memory of those that hold at most `limit`
    /// entries past the first and freeing the others' (all of it with 0, see
    /// ``SmallList/deallocate()``).
    mutating func empty(keepingCapacityUpTo limit: Int) {
      tells.removeAll(keepingCapacityUpTo: limit)
      unobserved.removeAll(keepingCapacityUpTo: limit)
      announcing.removeAll(keepingCapacityUpTo: limit)
      hooks.removeAll(keepingCapacityUpTo: limit)
      settles.removeAll(keepingCapacityUpTo: limit)
      releases.removeAll(keepingCapacityUpTo: limit)
      inputsToSettle.removeAll(keepingCapacityUpTo: limit)
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
      // allocation and a free. It holds empty lists, with the memory they had.
      if let block = tracking_take_spare_work_block() {
        lists = block.assumingMemoryBound(to: Lists.self)
      } else {
        let block = UnsafeMutablePointer<Lists>.allocate(capacity: 1)
        block.initialize(to: Lists())
        lists = block
      }
    }
    body(&lists.unsafelyUnwrapped.pointee)
  }

  /// Keeps a block of lists, emptied, as the spare one, or frees it when there is one
  /// already.
  private static func free(_ block: UnsafeMutablePointer<Lists>) {
    // Kept for the next work that takes it: the memory of lists that grew up to 60
    // entries past the first stays (a write that tells fifty reactions, as in the
    // reactivity suite's broadPropagation, grew its list three times at every write),
    // not that of larger ones. At most about 10 KiB for the process.
    block.pointee.empty(keepingCapacityUpTo: 60)
    guard !tracking_give_spare_work_block(block) else { return }
    block.pointee.empty(keepingCapacityUpTo: 0)
    block.deinitialize(count: 1)
    block.deallocate()
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

  /// `node`'s run ended having ignored its own change of a computation it read
  /// (``GraphNode/ignoredOwnMark``): its inputs are brought up to date once the locks
  /// are left (``ReactiveNode/settleInputs()``). On the run's own thread, which
  /// performs the work of the run's end.
  mutating func settleInputs(of node: GraphRef) {
    let entry = node.pointee.owner.retain()
    withLists { $0.inputsToSettle.append(entry) }
  }

  /// Moves the computations found without subscribers out of the work, with their
  /// references, for a retirement that retires them itself, one after another (see
  /// ``Computation/retireUnobserved(announces:)``).
  mutating func takeUnobserved(into list: inout UnobservedComputations) {
    guard let lists else { return }
    while let entry = lists.pointee.unobserved.popLast() { list.append(entry) }
  }

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
    defer { Self.free(lists) }
    let work = UnsafePointer(lists)
    work.pointee.hooks.forEach { $0.deliver() }
    work.pointee.settles.forEach { $0.withStorage { $0.settleSourceHooks() } }
    // One-shot trackings observe a computation in its registrar; only one that
    // announces its changes can have any.
    work.pointee.announcing.forEach { node in
      let computation = unsafeDowncast(node.takeUnretainedValue(), to: Computation.self)
      if computation.registrar.storage.hasOneShotObservers(of: 0) { NotificationBatch.enqueue(computation) }
    }
    // A computation that nobody observes retires (or, for a one-shot tracking, is
    // pulled when the batch drains).
    work.pointee.unobserved.forEach { node, announces in
      unsafeDowncast(node.takeUnretainedValue(), to: Computation.self).retireUnobserved(announces: announces)
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
    work.pointee.inputsToSettle.forEach { node in
      node._withUnsafeGuaranteedRef { unsafeDowncast($0, to: ReactiveNode.self).settleInputs() }
      Graph.settledInputs()
      node.release()
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

  /// Tells `tell`'s node of its change. The node's reference goes to the batch's queue
  /// if the node waits there, and is released otherwise; the reference to a computation
  /// is handed over (see ``ReactiveNode/computationMayHaveChanged(_:deferred:)``).
  private static func tell(_ tell: Tell, _ change: ChangeDescription, willSet: Bool, deferred: Bool) {
    let queues = tell.node._withUnsafeGuaranteedRef { node -> Bool in
      let node = unsafeDowncast(node, to: ReactiveNode.self)
      if let computation = tell.computation {
        return node.computationMayHaveChanged(
          unsafeDowncast(computation.takeRetainedValue(), to: Computation.self), deferred: deferred)
      } else if willSet {
        node.sourceWillChange(change)
        return false
      } else {
        return node.sourceDidChange(change)
      }
    }
    if queues {
      NotificationBatch.enqueue(queued: unsafeDowncast(tell.node.takeRetainedValue(), to: ReactiveNode.self))
    } else {
      tell.node.release()
    }
  }
}
