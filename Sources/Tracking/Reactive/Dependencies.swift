import CTrackingSupport

/// What a node's latest run read: its links in the graph (see ``Graph``), to the
/// sources of the tracked properties it read (``PropertySource``) and to the
/// computations. A run makes them as it reads, and its end drops those it did not
/// read again; so the node's dependencies are always exactly what its latest run read,
/// with no observer to install and nothing to compare.
extension ReactiveNode {
  /// The properties the latest run read, by object type and property name: the
  /// objects', then the computations' (a derived value's `value`).
  var describedDependencies: [TrackingDependency] {
    let (sources, computations) = Graph.withLock { (Graph.sources(of: graph), Graph.dependencies(of: graph)) }
    var result = sources.flatMap { TrackingDependency.all(of: $0.type, $0.properties) }
    for read in computations {
      if let type = read.computation.ownerType { result += TrackingDependency.all(of: type, PropertySet(0)) }
    }
    return result
  }

  /// Runs `body` as this node's run: its reads are collected into a scope of their own
  /// (isolated from any enclosing one: whoever runs the node depends on the node, not
  /// on what it read), and, with ``TrackingInterop/observesAppleObservables`` on,
  /// inside Apple's tracking too, whose change reaches ``appleSourceWillChange()``.
  ///
  /// The one place where a run's reads are collected, for every kind of node.
  @inline(__always)
  final func collect<T>(into reads: inout AccessList, _ body: () -> T) -> T {
    if _slowPath(TrackingInterop.observesAppleObservables) {
      return TrackingInterop.withAppleTracking(
        { AccessList.collectIsolated(into: &reads, body) },
        onChange: { [weak self] in self?.appleSourceWillChange() }
      ).value
    }
    return AccessList.collectIsolated(into: &reads, body)
  }

  /// Drops the node's links, under the graph lock (nested in the node's lock, which
  /// the caller holds), unless a run is reading through them (see
  /// ``Graph/dropDependencies(of:work:)``). `cancelling`: the node is cancelled for
  /// good. Returns what the links held, for the caller to let go of once its lock is
  /// released (``GraphWork/perform(_:willSet:)``).
  final func dropDependencies(cancelling: Bool = false) -> GraphWork {
    var links = GraphWork()
    Graph.enter()
    if cancelling { graph.pointee.cancelled = true }
    Graph.dropDependencies(of: graph, work: &links)
    Graph.leave()
    return links
  }

  /// Ends a reaction's run that read `reads`: drops the node's links that the run did
  /// not read again (it made those it read as it read them), then calls `end` under the
  /// node's lock with whether something the run read changed before the run linked to
  /// it, and returns what it returns.
  @inline(__always)
  final func endRun<R>(_ reads: borrowing AccessList, end: (inout NodeState, _ changedElsewhere: Bool) -> R) -> R {
    var work = GraphWork()
    let result = state.withLock { state -> R in
      Graph.enter()
      Graph.endRun(of: graph, work: &work)
      Graph.leave()
      return end(&state, reads.changedBeforeLink)
    }
    if !work.isEmpty { work.perform() }
    return result
  }

  // MARK: Pulling the inputs

  /// What ``pullInputs(untilChanged:)`` found.
  enum InputPull {
    case computationChanged, propertyMoved, unchanged
  }

  /// Brings the computations the latest run read up to date, in the order it read
  /// them, and says whether an input moved on since the run read it. With
  /// `untilChanged`, it stops at the first computation that changed (a reaction's run
  /// then happens, and reads them all again).
  ///
  /// Walks the links under the graph lock, and leaves it to bring a stale computation
  /// up to date (pinned meanwhile, see ``GraphNode/pin()``). If the links changed
  /// meanwhile (a cancellation, a run), it starts again from the first. Inlined, so
  /// that a reaction's pull costs no call more than its walk.
  @inline(__always)
  final func pullInputs(untilChanged: Bool) -> InputPull {
    let thread = tracking_current_thread()
    Graph.enter()
    defer { Graph.leave() }
    var outcome = InputPull.unchanged
    var link = graph.pointee.deps
    while let current = link {
      let input = current.pointee.dep
      if input.pointee.needsUpdate(on: thread) {
        let epoch = graph.pointee.epoch
        input.pointee.pin()
        Computation.bringUpToDate(input, thread: thread)
        Graph.enter()
        let releases = input.pointee.unpin()
        if _slowPath(releases != 0) { Graph.releaseHeld(input.pointee.owner, releases) }
        guard graph.pointee.epoch == epoch else {
          link = graph.pointee.deps
          continue
        }
      }
      if input.pointee.hasChanged(since: current.pointee.version, thread: thread) {
        if input.pointee.kind != .source {
          if untilChanged { return .computationChanged }
          outcome = .computationChanged
        } else if outcome == .unchanged {
          outcome = .propertyMoved
        }
      }
      link = current.pointee.nextDep
    }
    return outcome
  }

  /// The end of a run that ignored its own change of a computation it read (the
  /// own-writes rule, see ``GraphNode/ignoredOwnMark``), once the run is over and the
  /// locks are left (``GraphWork/settleInputs(of:)``): brings the stale computations
  /// it read up to date, so that the next change of their inputs reaches this node
  /// again. This does not run the node: its links keep the versions it read, so the
  /// next run it has for another cause counts these changes too (see
  /// ``Reaction/pullConfirmsChange()``).
  ///
  /// Without it, a computation that the run's own write made stale would stay stale,
  /// and a stale computation passes nothing on: every later change of its inputs
  /// would be lost for this node. Until it is done, changes pass on through stale
  /// computations (see ``Graph/noteIgnoredOwnMark(_:)``), so that another thread's
  /// change made between the run's read and this point is not lost either.
  @inline(never)
  final func settleInputs() {
    _ = pullInputs(untilChanged: false)
  }
}
