/// The part of a ``RenderLoop`` that changes reach from any thread: which components
/// are dirty and whether a cycle is already scheduled. Everything is behind one lock;
/// nothing here calls out while holding it.
final class DirtySet: Sendable {
  private struct State {
    var dirty: Set<Int> = []
    var cycleScheduled = false
    var registered: Set<Int> = []
  }

  private let state = Locked(State())
  let scheduler: RenderLoopScheduler?

  init(scheduler: RenderLoopScheduler?) {
    self.scheduler = scheduler
  }

  /// Marks `id` dirty, on the mutating thread. Returns whether the caller should
  /// schedule a cycle.
  func mark(_ id: Int) -> Bool {
    state.withLock { state -> Bool in
      guard state.registered.contains(id) else { return false }  // unregistered meanwhile
      state.dirty.insert(id)
      guard scheduler != nil, !state.cycleScheduled else { return false }
      state.cycleScheduled = true
      return true
    }
  }

  /// Starts accepting marks for `id`.
  func add(_ id: Int) {
    state.withLock { _ = $0.registered.insert(id) }
  }

  /// Takes the dirty set for a cycle; a change from now on schedules another cycle.
  func takeDirty() -> Set<Int> {
    state.withLock { state in
      state.cycleScheduled = false
      defer { state.dirty = [] }
      return state.dirty
    }
  }

  /// Forgets `id`.
  func remove(_ id: Int) {
    state.withLock { state in
      state.dirty.remove(id)
      state.registered.remove(id)
    }
  }

  /// Forgets every component (the loop is going away).
  func removeAll() {
    state.withLock { $0 = State() }
  }

  var dirtyCount: Int { state.withLock { $0.dirty.count } }

  func isDirty(_ id: Int) -> Bool { state.withLock { $0.dirty.contains(id) } }

  var isCycleScheduled: Bool { state.withLock { $0.cycleScheduled } }
}
