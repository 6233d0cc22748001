/// The observed/unobserved hooks of one object's properties (see
/// ``Trackable/onObservation(of:observed:unobserved:)``), kept in its storage's extras.
///
/// **When.** Whenever the storage's entries change (an observer installed, finished ones
/// swept, one-shot observers removed by a write), under the storage's lock, each hooked
/// property is checked against the pending observers: a property that had none and now
/// has one is *observed*, one that had some and now has none is *unobserved*. The
/// hooks run after the lock is released (see ``ObservationHook/deliver(_:)``). A
/// one-shot observer that fired stays counted until its entry is removed — at the next
/// write or sweep of the object — so a view that re-tracks right after a change does
/// not unobserve and observe again in between.
///
/// Cost: objects without hooks pay one load of their extras where entries change.
final class HookTable {
  struct Entry {
    let id: Int
    let hook: ObservationHook
    var observed: Bool
  }

  var entries: [Entry] = []
  /// Properties observed by something that is not an observer in this storage: the
  /// nodes of the reactive graph that read them, which are their sources' subscribers
  /// (see ``PropertySource``), or a derived value's readers, which are its subscribers
  /// (see ``Graph``).
  var observedElsewhere: Set<Int> = []

  /// Whether property `id` has hooks (any property, for a whole-object read).
  func hooks(_ id: Int) -> Bool {
    id == PropertySource.everyProperty ? !entries.isEmpty : entries.contains { $0.id == id }
  }

  /// The hooked properties.
  var hookedIDs: [Int] { entries.map(\.id) }

  /// Notes whether property `id` is observed by something that is not an observer here.
  func setObservedElsewhere(_ id: Int, _ observed: Bool) {
    if observed {
      observedElsewhere.insert(id)
    } else {
      observedElsewhere.remove(id)
    }
  }

  /// The hooks to run after the lock is released.
  struct Transitions {
    var changes: [(hook: ObservationHook, observed: Bool)] = []

    func deliver() {
      for change in changes { change.hook.deliver(change.observed) }
    }
  }

  /// Checks the hooked properties against the observers (under the storage's lock);
  /// `nil` when the object has no hooks or nothing changed.
  @inline(__always)
  static func settle(_ state: borrowing RegistrarStorage.State) -> Transitions? {
    guard let table = state.extras?.hooks else { return nil }
    return table.settle(state.observers)
  }

  private func settle(_ observers: borrowing RegistrarStorage.Observers) -> Transitions? {
    var transitions = Transitions()
    for index in entries.indices {
      let id = entries[index].id
      var observed = observedElsewhere.contains(id)
      observers.forEachEntry { observer, properties in
        if !observed, properties.contains(id), observer.isPending { observed = true }
      }
      guard observed != entries[index].observed else { continue }
      entries[index].observed = observed
      transitions.changes.append((entries[index].hook, observed))
    }
    return transitions.changes.isEmpty ? nil : transitions
  }
}

extension RegistrarStorage {
  /// Adds `hook` for property `id`: if the property is observed now, the hook hears
  /// it at once.
  func addHook(_ hook: ObservationHook, for id: Int) {
    let transitions = withLock { state -> HookTable.Transitions? in
      let extras = state.extrasCreatingIfNeeded()
      let table = extras.hooks ?? HookTable()
      extras.hooks = table
      table.entries.append(HookTable.Entry(id: id, hook: hook, observed: false))
      refreshObservedSources(table, state)
      return HookTable.settle(state)
    }
    transitions?.deliver()
  }

  /// Notes whether property `id` is observed by something that is not an observer here
  /// (see ``HookTable/observedElsewhere``), and returns the hooks' transitions to
  /// deliver once every lock is released.
  func setObservedElsewhere(_ id: Int, _ observed: Bool) -> HookTable.Transitions? {
    withLock { state in
      let extras = state.extrasCreatingIfNeeded()
      let table = extras.hooks ?? HookTable()
      extras.hooks = table
      table.setObservedElsewhere(id, observed)
      return HookTable.settle(state)
    }
  }

  /// Removes `hook`'s entries; says nothing to it (its token does).
  func removeHook(_ hook: ObservationHook) {
    withLock { state in
      guard let table = state.extras?.hooks else { return }
      table.entries.removeAll { $0.hook === hook }
      if table.entries.isEmpty && table.observedElsewhere.isEmpty { state.extras?.hooks = nil }
    }
  }
}
