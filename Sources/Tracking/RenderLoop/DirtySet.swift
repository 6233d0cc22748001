
/// The part of a ``RenderLoop`` that changes reach from any thread: which components
/// are dirty, whether a cycle is already scheduled, and each component's pending
/// tracking. Everything is behind one lock; nothing here calls out while holding it.
final class DirtySet: Sendable {
  private struct State {
    var dirty: Set<Int> = []
    var cycleScheduled = false
    var registered: Set<Int> = []
    var tokens: [Int: PendingTracking] = [:]
  }

  private let state = Locked(State())
  let scheduler: RenderLoopScheduler?

  init(scheduler: RenderLoopScheduler?) {
    self.scheduler = scheduler
  }

  /// Marks `id` dirty. Called in the `willSet` of a property the component read, on
  /// the mutating thread. Returns whether the caller should schedule a cycle.
  func mark(_ id: Int) -> Bool {
    state.withLock { state -> Bool in
      guard state.registered.contains(id) else { return false }  // unregistered meanwhile
      state.tokens[id] = nil  // it just fired
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

  /// Records the tracking installed by the latest run of `id`.
  func installed(_ token: PendingTracking, for id: Int) {
    state.withLock { $0.tokens[id] = token }
  }

  /// Takes the dirty set for a cycle; a change from now on schedules another cycle.
  func takeDirty() -> Set<Int> {
    state.withLock { state in
      state.cycleScheduled = false
      defer { state.dirty = [] }
      return state.dirty
    }
  }

  /// Forgets `id` and cancels its pending tracking.
  func remove(_ id: Int) {
    let token = state.withLock { state -> PendingTracking? in
      state.dirty.remove(id)
      state.registered.remove(id)
      return state.tokens.removeValue(forKey: id)
    }
    token?.cancel()
  }

  /// Cancels every pending tracking (the loop is going away).
  func removeAll() {
    let tokens = state.withLock { state -> [PendingTracking] in
      defer { state = State() }
      return Array(state.tokens.values)
    }
    for token in tokens { token.cancel() }
  }

  var dirtyCount: Int { state.withLock { $0.dirty.count } }

  func isDirty(_ id: Int) -> Bool { state.withLock { $0.dirty.contains(id) } }

  var isCycleScheduled: Bool { state.withLock { $0.cycleScheduled } }
}
