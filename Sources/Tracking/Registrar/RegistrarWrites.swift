/// The write side of a ``RegistrarStorage``: what a tracked property's `willSet` and
/// `didSet` do with the observers installed on its object, and the two questions the
/// derived values and introspection ask about them. (The words, the lock and the order
/// they follow are the type's, documented with it in RegistrarStorage.swift.)
extension RegistrarStorage {
  /// The `willSet` of a write of a read property: bumps the epoch and runs the will-set
  /// callbacks of the observers that watch `id`, and tells the nodes that read it and
  /// hear will-sets (through its sources, see ``PropertySource``). When nothing that
  /// watches `id` hears will-sets (the will-set mask), the entries are not scanned:
  /// finished ones are swept at the did-set.
  ///
  /// One-shot observers are removed while the lock is held; their callbacks run after
  /// it is released, on the mutating thread, before the value changes, after the nodes
  /// are told.
  @usableFromInline
  func willSet(_ id: Int, subject: AnyObject, site: () -> ChangeSite) {
    bumpChangeEpoch()
    guard observesWillSet(id) else { return }
    var (due, nodes) = collectDue(id, isDidSet: false) { observer, due, scanned in
      switch observer.kind {
      case .willSetOnce:
        due.append(observer, scanned: scanned, needs: observer.willSetNeeds)
        return .remove
      case .willSetThenDidSet:
        due.append(observer, scanned: scanned, needs: observer.willSetNeeds)
        return .keep
      case .didSetOnce, .deinitOnly:
        return .keep
      }
    }
    guard !due.isEmpty || !nodes.isEmpty else { return }
    // The change is described only as far as the callbacks (or spies) need: an event
    // costs an allocation that the classic `onChange` does not need.
    // Read once: a spy may start on another thread between two reads, and the change
    // then lacks the source the report needs.
    let spied = Spies.isActive
    let change = ChangeDescription.make(
      spied ? .source : max(due.needs, nodes.needs), subject: subject, isDidSet: false, site: site)
    if _slowPath(spied) { Spies.report(.willSet, change.source!, observers: due.count + nodes.count) }
    if nodes.isEmpty {
      if due.count == 1 {
        // Moved out of the list: read from it, the observer would be retained for the call.
        (consume due).takeOnly().unsafelyUnwrapped.notifyWillSet(change)
      } else {
        due.drain { $0.notifyWillSet(change) }
      }
    } else if due.holdsNothing {
      nodes.performWillSet(change)
    } else {
      // In installation order, the nodes among the one-shot observers.
      var observers = due.inOrder()
      nodes.performWillSet(change) { order in observers.take(before: order) { $0.notifyWillSet(change) } }
      observers.takeRest { $0.notifyWillSet(change) }
    }
    change.source?.endDelivery()
  }

  /// The `didSet` of a write of a read property: bumps the epoch and delivers the
  /// did-set to what watches `id`. The nodes of the reactive graph that read it are
  /// reached through its sources, in the graph, during the scan
  /// (``Graph/propagateWrite(from:thread:work:)``): derived values are made dirty there;
  /// the reactions reached are told once the lock is left, in the change's
  /// ``NotificationBatch``, before the one-shot observers' callbacks are queued in it
  /// (``NotificationBatch/deliverDidSet(_:_:)``).
  @usableFromInline
  func didSet(_ id: Int, subject: AnyObject, site: () -> ChangeSite) {
    bumpChangeEpoch()
    guard observes(id) else { return }
    let (due, nodes) = collectDue(id, isDidSet: true) { observer, due, scanned in
      switch observer.kind {
      case .willSetOnce, .deinitOnly:
        return .keep
      case .didSetOnce, .willSetThenDidSet:
        // Ends here: only the registrar that makes it due delivers its did-set.
        if observer.becomeDue() {
          due.append(observer, scanned: scanned, needs: observer.didSetNeeds)
        }
        return .remove
      }
    }
    guard !due.isEmpty || !nodes.isEmpty else { return }
    // Read once: a spy may start on another thread between two reads, and the change
    // then lacks the source the report needs.
    let spied = Spies.isActive
    let change = ChangeDescription.make(
      spied ? .source : max(due.needs, nodes.needs), subject: subject, isDidSet: true, site: site)
    if _slowPath(spied) { Spies.report(.didSet, change.source!, observers: due.count + nodes.count) }
    if due.holdsNothing { return NotificationBatch.deliverToNodes(nodes, change) }
    guard !nodes.isEmpty else { return NotificationBatch.deliverDidSet(consume due, change) }
    NotificationBatch.deliverDidSet(due, andTo: nodes, change)
  }

  /// The one pass both halves of a write make: under the lock, `decide` sees each
  /// pending observer that watches `id`, adds it to the due observers if it must be
  /// told (`scanned`, the number of entries, sizes that list), and says whether it
  /// stays installed; then the write's part in the graph, still under the lock: the
  /// property's sources are moved on (``markSources(_:_:work:)``) at a did-set, their
  /// will-set hearers collected (``willSetHearers(_:_:into:)``) at a will-set. Finished
  /// entries are swept on the way and the masks published; the hooks' transitions this
  /// causes (see ``HookTable``) are delivered after the lock.
  @inline(__always)
  private func collectDue(
    _ id: Int, isDidSet: Bool, _ decide: (TrackingObserver, _ due: inout DueObservers, _ scanned: Int) -> Verdict
  ) -> (DueObservers, GraphWork) {
    var due = DueObservers()
    var nodes = GraphWork()
    let hooks = withLock { state in
      let scanned = state.observers.count
      publish(state.observers.compact(changing: id) { decide($0, &due, scanned) }, state)
      if isDidSet { markSources(id, state, work: &nodes) } else { willSetHearers(id, state, into: &nodes) }
      return HookTable.settle(state)
    }
    hooks?.deliver()
    return (due, nodes)
  }

  /// Whether one-shot observers watch property `id` (a derived value's registrar: the
  /// nodes that read the value are its subscribers in the graph, not here). Removes the finished
  /// ones on the way.
  func hasOneShotObservers(of id: Int) -> Bool {
    var found = false
    let hooks = withLock { state in
      publish(
        state.observers.compact(changing: id) { observer in
          if observer.kind != .deinitOnly { found = true }
          return .keep
        }, state)
      return HookTable.settle(state)
    }
    hooks?.deliver()
    return found
  }
}
