import CTrackingSupport

/// What a node's latest run read of objects, and the observer that watches them (part
/// of ``NodeState``, under the node's lock). The computations it read are its links in
/// the graph (see ``Graph``).
struct Dependencies {
  /// The observer installed on every object the run read; `nil` when it read none.
  var observer: TrackingObserver?
  /// The objects the run read, by address; `nil` when there is nothing to compare a
  /// run with (no observer yet, or forgotten because an object it named was
  /// deallocated): the next run then installs afresh.
  var signature: ReadSignature?
  /// The objects the observer is on, to sweep it out of them when it is replaced or
  /// cancelled.
  var storages: [StorageHandle] = []
  /// Whether the node may have links in the graph (its latest run read a
  /// computation). Set at the end of a run and cleared by a drop, both with the node's
  /// lock held, so that a run that read no computation, of a node that has none, does
  /// not take the graph lock. (A run makes links as it reads, without this lock; it
  /// then says so in its `AccessList`.) A computation's run may end in the graph
  /// alone, which leaves this as it was: a computation's links are looked at instead
  /// (`GraphNode.deps`, read without the graph lock at the end of its run: only its
  /// runs, on the thread that holds its update lock, and drops, which hold its node's
  /// lock, change them).
  var hasLinks = false
  /// Grows by one each time the dependencies are dropped (a cancellation, a
  /// retirement): a run that relinks on another thread meanwhile sees it.
  var drops = 0
}

extension ReactiveNode {
  /// The properties the latest run read, by object type and property name: the
  /// objects', then the computations' (a derived value's `value`).
  var describedDependencies: [TrackingDependency] {
    let signature = state.withLock { $0.dependencies.signature }
    var result = signature?.dependencies ?? []
    for read in Graph.withLock({ Graph.dependencies(of: graph) }) {
      if let type = read.computation.ownerType { result += TrackingDependency.all(of: type, PropertySet(0)) }
    }
    return result
  }
}

/// Dependencies taken out of a node, to let go of outside its locks.
struct Dropped {
  var observer: TrackingObserver?
  var storages: [StorageHandle] = []
  /// The releases and hooks of the links dropped.
  var work = GraphWork()
}

extension ReactiveNode {
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

  /// Takes the node's dependencies out, for the caller to let go of once its lock is
  /// released (see ``letGo(_:)``): the observer, and the links (under the graph lock,
  /// nested in the node's). `cancelling`: the node is cancelled for good.
  final func dropDependencies(_ state: inout NodeState, cancelling: Bool = false) -> Dropped {
    var links = GraphWork()
    if state.dependencies.hasLinks || cancelling || isComputation {
      Graph.enter()
      if cancelling { graph.pointee.cancelled = true }
      dropLinks(into: &links)
      Graph.leave()
    }
    return takeDependencies(&state, droppedLinks: links)
  }

  /// The graph's part of ``dropDependencies(_:cancelling:)``, with the graph lock held:
  /// drops the node's links (unless a run is reading through them).
  final func dropLinks(into work: inout GraphWork) {
    graph.pointee.readsNoObjects = false
    Graph.dropDependencies(of: graph, work: &work)
  }

  /// The node's part of ``dropDependencies(_:cancelling:)``, once its links are dropped
  /// (`droppedLinks` holds what they held): takes the observer out.
  final func takeDependencies(_ state: inout NodeState, droppedLinks: GraphWork) -> Dropped {
    let dropped = Dropped(observer: state.dependencies.observer, storages: state.dependencies.storages, work: droppedLinks)
    state.dependencies = Dependencies(drops: state.dependencies.drops &+ 1)
    return dropped
  }

  /// Lets go of dropped dependencies: cancels the observer and sweeps it out of every
  /// object it was on (it holds this node), and releases what the dropped links held.
  final func letGo(_ dropped: Dropped) {
    if let observer = dropped.observer, observer.cancel() {
      for handle in dropped.storages { handle.sweep() }
    }
    dropped.work.perform()
  }

  /// Ends a run that read `reads`: keeps the installed observer when the run read the
  /// same properties of the same objects as the previous one, else installs a new one
  /// and cancels and sweeps the previous one; and drops the node's links to the
  /// computations the run did not read (it made those it read as it read them: see
  /// ``Graph/recordRead(_:by:version:first:work:)``). Then calls `end` under the lock,
  /// with whether another thread changed what the run read before the node could hear
  /// of it (a kept observer and a link heard everything), and returns what it returns.
  ///
  /// The one observer-reuse rule, for every kind of node.
  ///
  /// `reads` is `inout` though only read: the run's scope (some 150 bytes) then stays
  /// where it is. Borrowed from the caller's `inout`, it was copied (`memcpy`) for the
  /// call, and again for each function it is passed to that is not inlined (so
  /// ``ReadSignature/matches(_:_:)`` is inlined).
  @inline(__always)
  final func adopt<R>(_ reads: inout AccessList, end: (inout NodeState, _ changedElsewhere: Bool) -> R) -> R {
    var objectsKept = false
    var drops = 0
    var work = GraphWork()
    // Kept: the comparison and the end of the run are one step. The installed observer
    // is only compared (by identity), not retained.
    let kept = state.withLock { state -> R? in
      drops = state.dependencies.drops
      // A run that read no computation, of a node with no link, has no link to drop.
      if reads.readsComputations || state.dependencies.hasLinks || isComputation && graph.pointee.deps != nil {
        state.dependencies.hasLinks = Graph.withLock { Graph.endRun(of: graph, work: &work) }
      }
      guard !state.cancelled else { return nil }
      let observerKept = state.dependencies.observer.map { $0.isPending } ?? reads.isEmpty
      objectsKept = observerKept && ReadSignature.matches(state.dependencies.signature, reads)
      guard objectsKept else { return nil }
      // A kept observer saw every change since the run read, and a computation that
      // changed meanwhile made this node pending through its link.
      return end(&state, reads.computationChangedBeforeLink)
    }
    if !work.isEmpty { work.perform() }
    if let kept { return kept }
    let changed = relink(reads, keepingObserver: objectsKept, drops: drops)
    return state.withLock { end(&$0, changed || reads.computationChangedBeforeLink) }
  }

  /// ``adopt(_:end:)`` when the run read other objects than the previous one. Returns
  /// whether something the run read changed before the node could hear of it.
  private func relink(_ reads: borrowing AccessList, keepingObserver: Bool, drops: Int) -> Bool {
    var keepsObserver = keepingObserver
    var drops = drops
    var made: (observer: TrackingObserver?, signature: ReadSignature, storages: [StorageHandle])?
    while true {
      if !keepsObserver && made == nil {
        // By address: the observer's deinit handler forgets it when an object goes.
        let observer = reads.isEmpty ? nil : makeObserver()
        if let observer { reads.install(observer) }
        made = (observer, reads.addressSignature, reads.storageHandles)
      }
      let outcome = state.withLock { state -> RelinkOutcome in
        if state.cancelled { return .cancelled }
        // Dropped meanwhile (retired): the observer kept went with it.
        guard state.dependencies.drops == drops else {
          drops = state.dependencies.drops
          return .dropped
        }
        state.installCount += 1
        guard let made else { return .stored(replaced: nil, storages: []) }
        if isComputation { Graph.withLock { graph.pointee.readsNoObjects = made.observer == nil } }
        defer {
          state.dependencies.observer = made.observer
          state.dependencies.signature = made.signature
          state.dependencies.storages = made.storages
        }
        return .stored(replaced: state.dependencies.observer, storages: state.dependencies.storages)
      }
      switch outcome {
      case .dropped:
        keepsObserver = false
        continue
      case .cancelled:
        letGo(Dropped(observer: made?.observer, storages: made?.storages ?? []))
        return false
      case .stored(let replaced, let storages):
        // The replaced observer holds this node: swept out of every object it was on.
        if made != nil { letGo(Dropped(observer: replaced, storages: storages)) }
        // After the install (the order matters: see `AccessList.changedElsewhere()`).
        return made != nil && !reads.isEmpty && reads.changedElsewhere()
      }
    }
  }
}

/// How ``ReactiveNode/adopt(_:end:)`` found the node when it came to store what it
/// relinked.
private enum RelinkOutcome {
  /// Stored; what was replaced is to be let go of.
  case stored(replaced: TrackingObserver?, storages: [StorageHandle])
  /// The node was cancelled meanwhile.
  case cancelled
  /// The dependencies were dropped meanwhile (a retirement).
  case dropped
}
