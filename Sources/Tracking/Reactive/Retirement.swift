/// Retirement: a computation that nobody observes any more stops observing its inputs
/// (see ``Computation``, "Only while observed"). A propagation that reaches a
/// computation without subscribers, or the drop of the last link to a stale one, finds
/// it (``GraphWork/unobserved(_:)``); the work retires it once the locks are left.
extension Computation {
  /// Stops observing the inputs: nobody observes the value. It stays dirty, so the
  /// next read recomputes (and observes them again).
  ///
  /// A propagation found no subscriber and no one-shot observer (or the last link to
  /// this stale value was dropped), but another thread may have added one since:
  /// - a recomputation of a node that subscribed: then the value stays as it is
  ///   (current for that node, which would not hear of its next change otherwise);
  /// - a one-shot tracking that read the value while it was current, installing its
  ///   observer in the registrar now: the retirement then counts as a change for it,
  ///   as a write would, in the registrar's epoch protocol (see ``RegistrarStorage``).
  ///   Either the install sees that change and fires, or the retirement sees the
  ///   observer and queues the value to be pulled when the batch drains, which makes it
  ///   observe its inputs again (and announce if its value moved).
  ///
  /// The check, the mark and the drop of the links are one critical section: a
  /// recomputation may start and end between two of them (one that reads no object
  /// ends in the graph alone, without this node's lock), and would leave the value
  /// current with its links dropped, deaf to every later change.
  private func retire(leavingUnobservedTo waiting: inout UnobservedComputations) {
    let (retires, links) = state.withLock { state -> (Bool, GraphWork) in
      let keepsAlive = state.keepsAlive
      var links = GraphWork()
      let retires = Graph.withLock { () -> Bool in
        guard graph.pointee.subs == nil else { return false }
        graph.pointee.dirty = true
        if !keepsAlive { Graph.dropDependencies(of: graph, work: &links) }
        return !keepsAlive
      }
      return (retires, links)
    }
    if !links.isEmpty {
      var links = links
      links.takeUnobserved(into: &waiting)
      links.perform()
    }
    guard retires else { return }
    if registrar.storage.countsAsChangeForInstalls(0) { NotificationBatch.enqueue(self) }
  }

  /// Retires this computation, which a walk found without subscribers (see
  /// ``retire(leavingUnobservedTo:)``), unless a one-shot tracking observes it, or
  /// will: one whose `apply`, under way on this thread, read it and made this change.
  /// Retired, the value would count as changed for that tracking when it installs its
  /// observer, though the change is the tracking's own; pulled when the batch drains,
  /// the value announces its change while `apply` runs, which the tracking counts as
  /// its own write, and stays linked to its inputs for the changes that follow.
  ///
  /// Then the same for each stale computation that a retirement leaves without
  /// subscribers (its inputs, and theirs), one after another rather than recursively:
  /// a chain may be thousands deep.
  final func retireUnobserved(announces: Bool) {
    var waiting = UnobservedComputations()
    retireOrPull(announces: announces, leavingUnobservedTo: &waiting)
    while let (node, announces) = waiting.popLast() {
      unsafeDowncast(node.takeUnretainedValue(), to: Computation.self)
        .retireOrPull(announces: announces, leavingUnobservedTo: &waiting)
      node.release()
    }
    waiting.deallocate()
  }

  /// Retires the value if it is stale and nobody subscribes to it: called when it
  /// stops being kept alive (``Derived/keepsAlive``). Kept alive, it stayed linked
  /// through the change that made it stale, and a propagation stops at a stale value,
  /// so no later change would find it unobserved.
  final func retireIfStaleAndUnobserved() {
    let (unobserved, announces) = Graph.withLock {
      (graph.pointee.isStaleAndUnobserved, graph.pointee.announces)
    }
    if unobserved { retireUnobserved(announces: announces) }
  }

  private func retireOrPull(announces: Bool, leavingUnobservedTo waiting: inout UnobservedComputations) {
    let storage = registrar.storage
    if announces && (storage.hasOneShotObservers(of: 0) || AccessList.currentScopesRead(storage)) {
      NotificationBatch.enqueue(self)
    } else {
      retire(leavingUnobservedTo: &waiting)
    }
  }
}
