/// The write side of a ``RegistrarStorage``: what a tracked property's `willSet` and
/// `didSet` do with the observers installed on its object, and the two questions the
/// derived values and introspection ask about them. (The words, the lock and the order
/// they follow are the type's, documented with it in RegistrarStorage.swift.)
extension RegistrarStorage {
  /// The `willSet` of a write of a read property: bumps the epoch and runs the will-set
  /// callbacks of the observers that watch `id`. When none of the observers that
  /// watch `id` hears will-sets (the will-set mask), the entries are not scanned:
  /// finished ones are swept at the did-set.
  ///
  /// One-shot observers are removed while the lock is held; their callbacks run after
  /// it is released, on the mutating thread, before the value changes.
  @usableFromInline
  func willSet(_ id: Int, subject: AnyObject, site: () -> ChangeSite) {
    willSet(id, subject: subject, toNodes: true, site: site)
  }

  /// ``willSet(_:subject:site:)``; without `toNodes`, the observers of nodes are left
  /// out (a computation announcing its own change: its readers know it by its version).
  func willSet(_ id: Int, subject: AnyObject, toNodes: Bool, site: () -> ChangeSite) {
    bumpChangeEpoch()
    guard observesWillSet(id) else { return }
    var due = collectDue(id) { observer, due, scanned in
      switch observer.kind {
      case .willSetOnce:
        due.append(observer, scanned: scanned, needs: observer.willSetNeeds)
        return .remove
      case .willSetThenDidSet:
        due.append(observer, scanned: scanned, needs: observer.willSetNeeds)
        return .keep
      case .node:
        if toNodes && observer.hearsWillSet { due.append(observer, scanned: scanned, needs: observer.willSetNeeds) }
        return .keep
      case .didSetOnce, .deinitOnly:
        return .keep
      }
    }
    guard !due.isEmpty else { return }
    // The change is described only as far as the callbacks (or spies) need: an event
    // costs an allocation that the classic `onChange` does not need.
    let change = ChangeDescription.make(
      Spies.isActive ? .source : due.needs, subject: subject, isDidSet: false, site: site)
    if _slowPath(Spies.isActive) { Spies.report(.willSet, change.source!, observers: due.count) }
    if due.count == 1 {
      // Moved out of the list: read from it, the observer would be retained for the call.
      (consume due).takeOnly().unsafelyUnwrapped.notifyWillSet(change)
    } else {
      due.drain { $0.notifyWillSet(change) }
    }
    change.source?.endDelivery()
  }

  /// The `didSet` of a write of a read property: bumps the epoch and delivers the
  /// did-set to the observers that watch `id`. The derived values that read it are
  /// made dirty during the scan, in the graph (``WriteMarks``); the other observers
  /// are delivered after it (``NotificationBatch/deliverDidSet(_:_:)``): nodes are told
  /// at once, in the change's ``NotificationBatch``; one-shot callbacks wait in it.
  @usableFromInline
  func didSet(_ id: Int, subject: AnyObject, site: () -> ChangeSite) {
    didSet(id, subject: subject, toNodes: true, site: site)
  }

  /// ``didSet(_:subject:site:)``; without `toNodes`, as for ``willSet(_:subject:toNodes:site:)``.
  func didSet(_ id: Int, subject: AnyObject, toNodes: Bool, site: () -> ChangeSite) {
    bumpChangeEpoch()
    guard observes(id) else { return }
    // A spy counts the observers a change reaches: then every one goes to the list.
    let marksInGraph = toNodes && !Spies.isActive
    var marks = WriteMarks()
    let due = collectDue(
      id,
      { observer, due, scanned in
        switch observer.kind {
        case .willSetOnce, .deinitOnly:
          return .keep
        case .node:
          guard toNodes && observer.nodeHearsDidSet else { return .keep }
          // Only before any other due observer, so that everything is told in the
          // order found (see `WriteMarks`).
          if marksInGraph && due.isEmpty && observer.observesPlainComputation {
            marks.markDirty(observer)
          } else {
            due.append(observer, scanned: scanned, needs: observer.didSetNeeds)
          }
          return .keep
        case .didSetOnce, .willSetThenDidSet:
          // Ends here: only the registrar that makes it due delivers its did-set.
          if observer.becomeDue() {
            due.append(observer, scanned: scanned, needs: observer.didSetNeeds)
          }
          return .remove
        }
      }, endScan: { marks.endScan() })
    guard !due.isEmpty else { return marks.deliver() }
    let change = ChangeDescription.make(
      Spies.isActive ? .source : due.needs, subject: subject, isDidSet: true, site: site)
    if _slowPath(Spies.isActive) { Spies.report(.didSet, change.source!, observers: due.count) }
    guard !marks.isEmpty else { return NotificationBatch.deliverDidSet(consume due, change) }
    NotificationBatch.run {
      marks.deliver()
      NotificationBatch.deliverDidSet(due, change)
    }
  }

  /// The one pass both halves of a write make: under the lock, `decide` sees each
  /// pending observer that watches `id`, adds it to the due observers if it must be
  /// told (`scanned`, the number of entries, sizes that list), and says whether it
  /// stays installed; `endScan` runs when the scan is over, still under the lock.
  /// Finished entries are swept on the way and the masks published; the hooks'
  /// transitions this causes (see ``HookTable``) are delivered after the lock.
  @inline(__always)
  private func collectDue(
    _ id: Int, _ decide: (TrackingObserver, _ due: inout DueObservers, _ scanned: Int) -> Verdict,
    endScan: () -> Void = {}
  ) -> DueObservers {
    var due = DueObservers()
    let hooks = withLock { state in
      let scanned = state.observers.count
      publish(state.observers.compact(changing: id) { decide($0, &due, scanned) })
      endScan()
      return HookTable.settle(state)
    }
    hooks?.deliver()
    return due
  }

  /// Whether one-shot observers watch property `id` (a derived value's registrar: the
  /// nodes that read the value are its subscribers in the graph, not here). Removes the finished
  /// ones on the way.
  func hasOneShotObservers(of id: Int) -> Bool {
    var found = false
    let hooks = withLock { state in
      publish(
        state.observers.compact(changing: id) { observer in
          if observer.node == nil && observer.kind != .deinitOnly { found = true }
          return .keep
        })
      return HookTable.settle(state)
    }
    hooks?.deliver()
    return found
  }

  /// The nodes whose pending observers are installed here, with the properties each
  /// watches (introspection).
  func nodeObservers() -> [(node: ReactiveNode, properties: PropertySet)] {
    withLock { state in
      var result: [(ReactiveNode, PropertySet)] = []
      state.observers.forEachEntry { observer, properties in
        if observer.isPending, let node = observer.node { result.append((node, properties)) }
      }
      return result
    }
  }
}
