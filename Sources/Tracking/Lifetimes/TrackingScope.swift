/// An owner for observations: everything started inside its ``run(_:)`` — continuous
/// observations, ``Derived`` values, ``TrackedValues`` iterations, nested scopes,
/// cleanups — ends when the scope is cancelled or released.
///
/// ```swift
/// @MainActor final class ProfileScreen {
///   private let scope = TrackingScope()
///
///   init(model: Profile, label: Label) {
///     scope.run {
///       _ = observe { label.text = model.name }
///       _ = observe { label.isHidden = model.isPrivate }
///     }
///   }
///   // Released with the screen: both observations end.
/// }
/// ```
///
/// The signals libraries' `effectScope` (Vue, alien-signals). It answers the mistakes
/// that leak observations:
/// - **Nothing is dropped by accident.** An observation started in a scope is kept
///   alive by the scope, so its token may be ignored (`_ = observe { … }`); it ends
///   with the scope, or earlier when its token is cancelled.
/// - **Nothing outlives its owner.** Cancelling a scope ends everything it owns, the
///   latest first; releasing it cancels it. A scope made inside another scope's `run`,
///   or inside an observation's run, belongs to that owner and ends with it.
/// - **A run owns what it starts.** Outside any scope, an observation started inside
///   another observation's body belongs to that run: it ends before the body runs
///   again and when the outer observation is cancelled, so re-runs never pile up
///   observations (see the *Lifetimes* article).
///
/// A scope that is cancelled stays usable: what is started in its `run` afterwards
/// ends at once — an observation before its first run — so nothing escapes it, and
/// `run` still runs its body.
///
/// Threads: a scope is `Sendable`; `run` may be called on any thread, and `cancel` on
/// any other. The owner is per thread: work that `run`'s body hands to another thread
/// or task is not owned unless it is started with ``task(priority:_:)`` or registered
/// with ``onCleanup(_:)`` from inside the body.
public final class TrackingScope: Sendable, Hashable {
  let ownership: ScopeOwnership

  /// A new scope. Made inside another owner (a scope's `run`, an observation's run), it
  /// belongs to that owner and is cancelled with it.
  ///
  /// - Parameters:
  ///   - fileID: Where the scope is made, for the leak check (filled in for you).
  ///   - line: The line of the call (filled in for you).
  public init(fileID: StaticString = #fileID, line: UInt = #line) {
    let ownership = ScopeOwnership()
    self.ownership = ownership
    ownership.beOwnedByTheCurrentOwner()
    LifetimeRecorder.register(ownership, kind: .scope, site: SourceSite(fileID: fileID, line: line))
  }

  /// Runs `body` with this scope as the owner of what it starts, and returns its value.
  /// Nested calls (of this scope or others) are fine: the innermost scope owns.
  ///
  /// - Parameter body: The code whose observations, derived values, sequences, scopes
  ///   and cleanups this scope owns.
  /// - Returns: What `body` returns.
  public func run<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
    try ownership.makeCurrent(body)
  }

  /// Starts a task that this scope owns: it is cancelled when the scope ends. For
  /// asynchronous work, such as iterating ``TrackedValues``, that should stop with the
  /// scope.
  ///
  /// - Parameters:
  ///   - priority: The task's priority.
  ///   - operation: The task's work, isolated to the caller's actor.
  /// - Returns: The task.
  @discardableResult
  public func task(
    priority: TaskPriority? = nil,
    @_inheritActorContext _ operation: sending @escaping @isolated(any) () async -> Void
  ) -> Task<Void, Never> {
    let task = Task(priority: priority, operation: operation)
    ownership.own(Owned(end: { task.cancel() }, hasEnded: { task.isCancelled }))
    return task
  }

  /// Ends everything this scope owns, the latest first. Calling it again does nothing.
  public func cancel() { ownership.end() }

  /// Whether the scope was cancelled (or released).
  public var isCancelled: Bool { ownership.isEnded }

  deinit { ownership.end() }

  /// Equal only to itself.
  public static func == (lhs: TrackingScope, rhs: TrackingScope) -> Bool { lhs === rhs }

  /// Hashes the scope's identity.
  public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// The owner behind a ``TrackingScope`` (and behind each ``TrackedValues`` sequence made
/// inside an owner, which owns the sequence's iterations): what it owns, under a lock (a
/// scope may be run on one thread and cancelled on another).
@usableFromInline
final class ScopeOwnership: LifetimeOwner, @unchecked Sendable {
  private struct State {
    var ended = false
    var owned: [Owned] = []
    /// When `owned` reaches this size, the things that ended on their own are dropped
    /// first (so a long-lived scope does not grow with cancelled observations).
    var pruneAt = 16
  }

  private let state = Locked(State())

  /// Owns `owned` until the scope ends; ends it at once if the scope has ended.
  override func own(_ owned: Owned) {
    let endNow = state.withLock { state -> Bool in
      if state.ended { return true }
      if state.owned.count >= state.pruneAt {
        state.owned.removeAll { $0.hasEnded() }
        state.pruneAt = max(16, state.owned.count * 2)
      }
      state.owned.append(owned)
      return false
    }
    if endNow { owned.end() }
  }

  /// Ends what the scope owns (outside the lock: ending runs user code).
  func end() {
    let owned = state.withLock { state -> [Owned] in
      state.ended = true
      defer { state.owned = [] }
      return state.owned
    }
    LifetimeOwner.end(owned)
  }

  /// Makes this ownership end with the current owner, if there is one.
  func beOwnedByTheCurrentOwner() {
    LifetimeOwner.current?.own(Owned(end: { [self] in end() }, hasEnded: { [self] in isEnded }))
  }

  var isEnded: Bool { state.withLock { $0.ended } }

  /// How many things the scope owns now (for the leak check's report).
  var ownedCount: Int { state.withLock { $0.owned.count } }
}
