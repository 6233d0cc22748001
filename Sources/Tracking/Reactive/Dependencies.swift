/// What a node's latest run read, the observer that watches the objects among it, and
/// the computations whose reader lists hold the node (part of ``NodeState``, under the
/// node's lock).
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
  /// The computations the run read, in the order it first read them, each with the
  /// version it saw: what a pending node pulls. The node holds one link on the reader
  /// list of each (see ``ReaderList``).
  var computations = ComputationReads()
  /// Grows by one each time the dependencies are dropped (a cancellation, a
  /// retirement): a run that relinks on another thread meanwhile sees it.
  var drops = 0

  /// The properties read, by object type and property name: the objects', then the
  /// computations' (a derived value's `value`).
  var described: [TrackingDependency] {
    var result = signature?.dependencies ?? []
    computations.forEach { read in
      if let type = read.computation.ownerType { result += TrackingDependency.all(of: type, PropertySet(0)) }
    }
    return result
  }

  /// Takes everything, for the caller to let go of once the lock is released (see
  /// ``ReactiveNode/letGo(_:)``).
  mutating func drop() -> Dropped {
    let dropped = Dropped(observer: observer, storages: storages, computations: computations)
    self = Dependencies(drops: drops &+ 1)
    return dropped
  }
}

/// Dependencies taken out of a node, to let go of outside its lock.
struct Dropped {
  let observer: TrackingObserver?
  let storages: [StorageHandle]
  let computations: ComputationReads
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

  /// Lets go of dropped dependencies: cancels the observer and sweeps it out of every
  /// object it was on (it holds this node), and removes the node's links from the
  /// computations' reader lists.
  final func letGo(_ dropped: Dropped) {
    if let observer = dropped.observer, observer.cancel() {
      for handle in dropped.storages { handle.sweep() }
    }
    dropped.computations.forEach { $0.computation.removeReader(self) }
  }

  /// Ends a run that read `reads`: keeps the installed observer when the run read the
  /// same properties of the same objects as the previous one, else installs a new one
  /// and cancels and sweeps the previous one; and keeps the node on the reader lists of
  /// the computations the run read, and only those. Then calls `end` under the lock,
  /// with whether another thread changed what the run read before the node could hear
  /// of it (a kept observer and a kept link heard everything), and returns what it
  /// returns.
  ///
  /// The one observer-reuse rule, for every kind of node.
  final func adopt<R>(_ reads: borrowing AccessList, end: (inout NodeState, _ changedElsewhere: Bool) -> R) -> R {
    var objectsKept = false
    var drops = 0
    // Kept: the comparison and the end of the run are one step. The installed observer
    // is only compared (by identity), not retained.
    let kept = state.withLock { state -> R? in
      drops = state.dependencies.drops
      guard !state.cancelled else { return nil }
      let observerKept = state.dependencies.observer.map { $0.isPending } ?? reads.isEmpty
      objectsKept = observerKept && ReadSignature.matches(state.dependencies.signature, reads)
      guard objectsKept, reads.computations.readsSameComputations(as: state.dependencies.computations) else {
        return nil
      }
      // The versions this run read replace the previous run's, in place: the list and
      // its references stay (a run that read no computation has none to replace).
      if !reads.computations.isEmpty { state.dependencies.computations.takeVersions(of: reads.computations) }
      // A kept observer saw every change since the run read, and a computation that
      // changed meanwhile made this node pending through its reader list.
      return end(&state, false)
    }
    if let kept { return kept }
    let changed = relink(reads, computations: reads.computations, keepingObserver: objectsKept, drops: drops)
    return state.withLock { end(&$0, changed) }
  }

  /// ``adopt(_:end:)`` when the run read other objects or other computations than the
  /// previous one. Returns whether something the run read changed before the node
  /// could hear of it.
  private func relink(
    _ reads: borrowing AccessList, computations: ComputationReads, keepingObserver: Bool, drops: Int
  ) -> Bool {
    var keepsObserver = keepingObserver
    var drops = drops
    var made: (observer: TrackingObserver?, signature: ReadSignature, storages: [StorageHandle])?
    // The links this call added, and the computations it need not add one for (the
    // previous run holds theirs, which this run inherits).
    var added: [Computation] = []
    var inherited = state.withLock { $0.dependencies.computations }
    while true {
      if !keepsObserver && made == nil {
        // By address: the observer's deinit handler forgets it when an object goes.
        let observer = reads.isEmpty ? nil : makeObserver()
        if let observer { reads.install(observer) }
        made = (observer, reads.addressSignature, reads.storageHandles)
      }
      computations.forEachMissing(from: inherited) { computation in
        computation.addReader(self)
        added.append(computation)
      }
      inherited = ComputationReads()
      let outcome = state.withLock { state -> RelinkOutcome in
        if state.cancelled { return .cancelled }
        // Dropped meanwhile (retired): the observer kept and the links inherited went
        // with it.
        guard state.dependencies.drops == drops else {
          drops = state.dependencies.drops
          return .dropped
        }
        state.installCount += 1
        let previous = state.dependencies.computations
        state.dependencies.computations = computations
        guard let made else { return .stored(replaced: nil, storages: [], computations: previous) }
        defer {
          state.dependencies.observer = made.observer
          state.dependencies.signature = made.signature
          state.dependencies.storages = made.storages
        }
        return .stored(
          replaced: state.dependencies.observer, storages: state.dependencies.storages, computations: previous)
      }
      switch outcome {
      case .dropped:
        // The inherited links went with the dropped list: add every link this run
        // needs except those this call added already.
        keepsObserver = false
        for computation in added { inherited.add(computation, version: 0) }
        continue
      case .cancelled:
        letGo(Dropped(observer: made?.observer, storages: made?.storages ?? [], computations: ComputationReads()))
        for computation in added { computation.removeReader(self) }
        return false
      case .stored(let replaced, let storages, let previous):
        // The replaced observer holds this node: swept out of every object it was on.
        if made != nil { letGo(Dropped(observer: replaced, storages: storages, computations: ComputationReads())) }
        previous.forEachMissing(from: computations) { $0.removeReader(self) }
        // After the install and the links (the order matters: see
        // `AccessList.changedElsewhere()`).
        let objectsChanged = made != nil && !reads.isEmpty && reads.changedElsewhere()
        return objectsChanged || computations.changedSinceRead
      }
    }
  }
}

/// How ``ReactiveNode/adopt(_:end:)`` found the node when it came to store what it
/// relinked.
private enum RelinkOutcome {
  /// Stored; what was replaced is to be let go of.
  case stored(replaced: TrackingObserver?, storages: [StorageHandle], computations: ComputationReads)
  /// The node was cancelled meanwhile.
  case cancelled
  /// The dependencies were dropped meanwhile (a retirement).
  case dropped
}
