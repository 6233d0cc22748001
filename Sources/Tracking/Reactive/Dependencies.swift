/// What a node's latest run read, and the observer that watches it (part of
/// ``NodeState``, under the node's lock).
struct Dependencies {
  /// The observer installed on every object the run read; `nil` when it read none.
  var observer: TrackingObserver?
  /// What that run read, by object address; `nil` when there is nothing to compare a
  /// run with (no observer yet, or forgotten because an object it named was
  /// deallocated): the next run then installs afresh.
  var signature: ReadSignature?
  /// The objects the observer is on, to sweep it out of them when it is replaced or
  /// cancelled.
  var storages: [StorageHandle] = []
  /// The computations the run read, in the order it first read them, each with the
  /// version it saw: what a pending node pulls.
  var computations = ComputationReads()

  /// Forgets everything and returns the storages to sweep.
  mutating func clear() -> [StorageHandle] {
    defer { self = Dependencies() }
    return storages
  }
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

  /// Ends a run that read `reads`: keeps the installed observer when the run read the
  /// same properties of the same objects as the previous one, else installs a new one
  /// and cancels and sweeps the previous one. Then calls `end` under the lock, with
  /// whether another thread changed what the run read before the new observer could
  /// see it (a kept observer saw everything: it stayed installed), and returns what it
  /// returns.
  ///
  /// The one observer-reuse rule, for every kind of node.
  final func adopt<R>(_ reads: borrowing AccessList, end: (inout NodeState, _ changedElsewhere: Bool) -> R) -> R {
    let computations = reads.computations
    // Kept: the comparison and the end of the run are one step. The installed observer
    // is only compared (by identity), not retained.
    let kept = state.withLock { state -> R? in
      state.dependencies.computations = computations
      guard !state.cancelled, state.dependencies.observer?.isPending == true,
        ReadSignature.matches(state.dependencies.signature, reads)
      else { return nil }
      // A kept observer saw every change since the run read: a computation that
      // changed meanwhile made this node pending through it.
      return end(&state, false)
    }
    if let kept { return kept }
    return replaceObserver(reads, computations: computations, end: end)
  }

  /// ``adopt(_:end:)`` when the reads differ from the previous run's.
  private func replaceObserver<R>(
    _ reads: borrowing AccessList, computations: ComputationReads,
    end: (inout NodeState, _ changedElsewhere: Bool) -> R
  ) -> R {
    // By address: the observer's deinit handler forgets it when an object goes.
    let signature = reads.addressSignature
    let observer = reads.isEmpty ? nil : makeObserver()
    if let observer { reads.install(observer) }
    let storages = reads.storageHandles
    let (replaced, previousStorages, cancelled) = state.withLock { state in
      defer {
        state.dependencies.observer = observer
        state.dependencies.signature = signature
        state.dependencies.storages = storages
        state.installCount += 1
      }
      return (state.dependencies.observer, state.dependencies.storages, state.cancelled)
    }
    // The replaced observer holds this node: swept out of every object it was on, so
    // that nothing keeps it once the node is cancelled.
    if let replaced, replaced.cancel() {
      for handle in previousStorages { handle.sweep() }
    }
    if cancelled, let observer, observer.cancel() {
      for handle in storages { handle.sweep() }
    }
    // After the install (the order matters: see `AccessList.changedElsewhere()`).
    let changed = (!reads.isEmpty && reads.changedElsewhere()) || computations.changedSinceRead
    return state.withLock { end(&$0, changed) }
  }
}
