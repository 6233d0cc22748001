/// Owns a root ``TrackedState()`` value and makes it observable: the small store
/// that struct state lives in.
///
/// ```swift
/// let store = StateStore(Feature())
/// withTracking { _ = store.child.count } onChange: { print("child count will change") }
/// store.mutate { $0.child.count += 1 }   // notifies the tracking above
/// store.mutate { $0.title = "New" }      // does not: it did not read `title`
/// ```
///
/// Reads go through ``state`` (or dynamic member lookup, `store.count`); every read
/// records the store's `state` plus each state field read on the way. Mutations go
/// through ``mutate(_:)`` or a writable member (`store.count = 1`).
///
/// **Only the store notifies.** A mutation runs on a copy of the state; when it
/// returns, the store compares the old and the new state field by field (see
/// ``StateChanges`` for the rules), sends `willSet` for each field that changed while
/// it still holds the old state, stores the new state, and sends `didSet` for each.
/// Setting a field of a state value anywhere else only stores it. So a copy of the
/// state (`var copy = store.state`, a value passed to a function, captured in a
/// closure, kept in an array, mutated on another thread, or made inside ``mutate(_:)``
/// and not stored back) is independent: mutating it notifies no one. Writing a copy
/// back (`store.mutate { $0.child = copy }`) notifies the readers of exactly the fields
/// in which it differs from what the store holds.
///
/// **One store per value.** The readers of a state value belong to the store that
/// holds it. A store made from (or handed) a value that another store holds gives its
/// copy a new identity, so the two stores never notify each other's readers. A value
/// that one store holds in two places at once (`$0.a = $0.b`) keeps one identity, and
/// a change in one place also notifies the readers of the other.
///
/// A store is not `Sendable`: use it from one isolation domain (the state values it
/// hands out may travel).
@dynamicMemberLookup
public final class StateStore<State: TrackedStateValue>: Trackable {
  @usableFromInline let owner: StateOwner
  /// The state, stored in the store itself and read in place and exchanged by a commit.
  ///
  /// Exclusivity is not checked dynamically (`@exclusivity(unchecked)`): a checked
  /// class property would begin and end an access around every read and around the
  /// exchange of a commit. The store is not `Sendable`, so only its isolation domain
  /// touches it, and the store's own accesses never overlap: a read returns a copy or
  /// borrows the state in place for a member's getter (which records the read and calls
  /// nothing that can reach the store: a diagnostics handler is `@Sendable` and cannot
  /// hold one), and a commit compares and exchanges after `mutate`'s body returned.
  @exclusivity(unchecked) @usableFromInline var _state: State

  /// Creates a store that owns `state`. State values in it that another store holds
  /// get a new identity here (see ``StateOwner``).
  public init(_ state: State) {
    let owner = StateOwner()
    var state = state
    owner.reidentify(&state)
    self.owner = owner
    _state = state
  }

  /// The root state. Reading it records a read of the root, whose readers are notified
  /// when a mutation replaces it.
  ///
  /// To change it, use ``mutate(_:)`` or a writable member (`store.count = 1`).
  @inlinable
  public var state: State {
    recordRootRead()
    return _state
  }

  /// Reads the state's member at `keyPath`.
  ///
  /// Inlined, so that the key path, a literal at the call site, is applied as a direct
  /// read of the member.
  @inlinable
  public subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
    @inline(__always) get {
      recordRootRead()
      return Self.read(keyPath, in: &_state)
    }
  }

  /// Reads or writes the state's member at `keyPath`; a write is
  /// `mutate { $0[keyPath: keyPath] = newValue }`.
  ///
  /// A nested write such as `store.child.value = 3` reads `child`, sets `value` on that
  /// copy (which notifies no one) and stores the copy back through ``mutate(_:)``,
  /// which notifies the readers of `child.value`.
  @inlinable
  public subscript<Value>(dynamicMember keyPath: WritableKeyPath<State, Value>) -> Value {
    @inline(__always) get {
      recordRootRead()
      return Self.read(keyPath, in: &_state)
    }
    set { mutate { $0[keyPath: keyPath] = newValue } }
  }

  /// `state[keyPath: keyPath]`, with `state` borrowed in place. Read from the stored
  /// property directly, the whole state would be copied first (a retain and a release
  /// of each of its references): the member's getter records the read, a call the
  /// compiler cannot see through, and the store is a class whose property that call
  /// could change. Borrowed as `inout`, the getter reads the store's own storage (why
  /// no other access overlaps it: see ``_state``).
  @inlinable @inline(__always)
  static func read<Value>(_ keyPath: KeyPath<State, Value>, in state: inout State) -> Value {
    state[keyPath: keyPath]
  }

  /// Records a read of the root state, on the root's own observation (see
  /// ``StateObservation/rootID``), so that a member read through it records one object.
  /// In a region that requires tracking but outside any tracking, reports the read as
  /// one of the store's `state`.
  @inlinable @inline(__always)
  func recordRootRead() {
    // Only the observation goes on, unretained: a registrar held across the call that
    // records the read would be copied (retained and released) first, as the store is
    // a class whose state the compiler cannot tell the call leaves alone. The state
    // holds the observation meanwhile.
    let root = Unmanaged.passUnretained(_state._$stateRegistrar.observation)
    if !StateRegistrar.accessAsRoot(root) { reportUntrackedRootRead() }
  }

  /// Reports a read of ``state`` in a region that requires tracking, outside any
  /// tracking.
  @usableFromInline @inline(never)
  func reportUntrackedRootRead() {
    RequiredTracking.reportUntrackedRead(self, \.state)
  }

  /// Mutates the state and returns what `body` returns.
  ///
  /// `body` works on a copy of the state inside a transaction (``withTransaction(_:)``).
  /// When it returns (also when it throws) the store compares the copy with the state
  /// it holds and notifies the readers of the fields that changed:
  /// - `willSet`-time callbacks (`onChange`, `willSet`) run first, while the store
  ///   still holds the old state, and read it;
  /// - then the copy is stored;
  /// - `didSet`-time callbacks (`didSet`, `observe`, derived values) run when the
  ///   transaction ends, once each, and read the new state.
  ///
  /// Replacing the whole state (`$0 = Feature()`) with a value of a different identity
  /// notifies every reader of the store. Writes to a copy of a field that `body` does
  /// not store back notify no one.
  ///
  /// Don't call `mutate` on the same store from inside `body`, or from a `willSet`-time
  /// callback that fires during it: the outer call stores its copy last, and the inner
  /// call's changes are lost. (`didSet`-time callbacks run after the state is stored and
  /// may mutate it.)
  @inlinable @discardableResult
  public func mutate<Result, Failure: Error>(
    _ body: (inout State) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try withTransaction { () throws(Failure) -> Result in
      var copy = _state
      let result: Result
      do throws(Failure) {
        result = try body(&copy)
      } catch {
        commit(consume copy)
        throw error
      }
      commit(consume copy)
      return result
    }
  }

  /// `new._$reportChanges(from: old, into: &changes)`, with `old` borrowed in place:
  /// passed straight from the stored property, the state would be copied first (a
  /// retain and a release of each of its references).
  @inlinable @inline(__always)
  static func reportChanges(in new: State, from old: inout State, into changes: inout StateChanges) -> Bool {
    new._$reportChanges(from: old, into: &changes)
  }

  /// Stores `new`, a mutated copy of the state, notifying the readers of what changed.
  @inlinable
  func commit(_ new: consuming State) {
    var changes = StateChanges(owner: owner)
    // Compared with the stored state, then exchanged with it: `new` is moved in, and
    // the old state is moved out and destroyed last, so that what the recorded changes
    // point to unretained (the observations of values that kept their identity) stays
    // alive until they are delivered, whatever a callback does to the store meanwhile.
    if Self.reportChanges(in: new, from: &_state, into: &changes) {
      // A new root: every reader of the store read the old root as such.
      owner.reidentify(&new)
      let oldRoot = _state._$stateRegistrar
      oldRoot.rootWillChange()
      let old = Self.exchange(&_state, with: new)
      oldRoot.rootDidChange()
      _ = consume old
    } else {
      if !changes.claimedAll { owner.reidentify(&new) }
      changes.willSet()
      let old = Self.exchange(&_state, with: new)
      changes.didSet()
      _ = consume old
    }
  }

  /// Moves `new` into `state` and returns what `state` held: two moves, where a swap
  /// with a local makes three.
  @inlinable @inline(__always)
  static func exchange(_ state: inout State, with new: consuming State) -> State {
    let old = consume state
    state = new
    return old
  }
}
