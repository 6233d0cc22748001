/// Retirement: a computation that nobody observes any more stops observing its inputs
/// (see ``Computation``, "Only while observed"). A propagation that reaches a
/// computation without subscribers, or the drop of the last link to a stale one, finds
/// it (``GraphWork/unobserved(_:)``); the work retires it once the locks are left. A
/// stale one that never announced its changes retires at the drop itself
/// (``Graph/retireInPlace(_:work:)``).
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
  /// The check, the mark and the drop of the links are one critical section (see
  /// ``Graph/retire(_:work:)``).
  private func retire(leavingUnobservedTo waiting: inout UnobservedComputations) {
    var links = GraphWork()
    let retires = Graph.withLock { Graph.retire(graph, work: &links) }
    if !links.isEmpty {
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

extension Graph {
  /// Retires `computation`, stale and without subscribers, unless a subscriber came
  /// since or it is kept alive: it stays dirty, so its next read recomputes it (and
  /// observes its inputs again), and takes its links off its inputs' lists of
  /// subscribers, keeping them for that recomputation (``GraphNode/retired``; the
  /// computations that leaves without subscribers go to `work`). Returns whether it
  /// retired. Under the graph lock.
  ///
  /// The check, the mark and the detaching of the links are one critical section: a
  /// recomputation may start and end between two of them (one that reads no object
  /// ends in the graph alone), and would leave the value current with its links
  /// detached, deaf to every later change.
  static func retire(_ computation: GraphRef, work: inout GraphWork) -> Bool {
    guard computation.pointee.subs == nil else { return false }
    computation.pointee.dirty = true
    guard !computation.pointee.keepsAlive else { return false }
    detachDependencies(of: computation, work: &work)
    return true
  }

  /// Retires `computation`, which the drop of its last link left stale and without
  /// subscribers, in the critical section that dropped that link, when nothing else
  /// may observe it: it never announced its changes, so no one-shot tracking reads it
  /// (see ``Computation/retireUnobserved(announces:)`` for one that did). A
  /// computation whose run reads one of two values by turns (the reactivity suite's
  /// `unstable`) drops one at every change: retired here, it costs no second pass
  /// through the locks. Called from the drop of a link, except while a retirement
  /// detaches its own links: a computation that retirement leaves unobserved goes to
  /// `work`, so that a chain thousands deep is retired one after another, not
  /// recursively.
  static func retireInPlace(_ computation: GraphRef, work: inout GraphWork) {
    guard retire(computation, work: &work) else { return }
    // A one-shot tracking may have read the value and not yet marked it as
    // announcing; the retirement counts as a change for its install (see
    // ``Computation/retire(leavingUnobservedTo:)``).
    // (Through the node's owner as it is: a reference taken would be retained.)
    let counts = computation.pointee.owner._withUnsafeGuaranteedRef {
      unsafeDowncast($0, to: Computation.self).registrar.storage.countsAsChangeForInstalls(0)
    }
    if counts { work.announce(computation) }
  }
}
