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
/// through ``mutate(_:)`` or a writable member (`store.count = 1`), and notify as described in ``StateRegistrar``: replacing the root with
/// a value of a different identity notifies every reader of the store.
@dynamicMemberLookup
public final class StateStore<State: TrackedStateValue>: Trackable {
  private let registrar = TrackingRegistrar()
  private var _state: State

  /// Creates a store that owns `state`.
  public init(_ state: State) {
    _state = state
  }

  /// The root state. Reading it records a read of the store.
  ///
  /// To change it, use ``mutate(_:)`` or a writable member (`store.count = 1`).
  public private(set) var state: State {
    get {
      registrar.access(self, property: 0, keyPath: \.state)
      return _state
    }
    set {
      guard StateRegistrar.shouldNotify(_state, newValue) else {
        _state = newValue
        return
      }
      registrar.withMutation(of: self, property: 0, keyPath: \.state) {
        _state = newValue
      }
    }
  }

  /// Reads the state's member at `keyPath`.
  public subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
    state[keyPath: keyPath]
  }

  /// Reads or writes the state's member at `keyPath`; a write is
  /// `mutate { $0[keyPath: keyPath] = newValue }`.
  ///
  /// A nested write such as `store.child.value = 3` reads `child`, sets `value` on
  /// that copy (its readers' `onChange` and `didChange` run then, while the store
  /// still holds the old value) and stores the copy back. Write nested fields with
  /// ``mutate(_:)`` for `didChange` callbacks to see the new state.
  public subscript<Value>(dynamicMember keyPath: WritableKeyPath<State, Value>) -> Value {
    get { state[keyPath: keyPath] }
    set { mutate { $0[keyPath: keyPath] = newValue } }
  }

  /// Mutates the state and returns what `body` returns.
  ///
  /// `body` works on a copy that is stored back when it returns (also when it
  /// throws), so trackings that fire during `body` can read the store and see the
  /// state as it was:
  /// - `willSet`-time callbacks (`onChange`, `willChange`) run during `body`, when
  ///   the field is set, and read the old state;
  /// - `didSet`-time callbacks (`didChange`) are held until the copy is stored back,
  ///   and read the new state.
  ///
  /// Replacing the whole state (`$0 = Feature()`) with a value of a different
  /// identity notifies every reader of the store when it is stored back. The copy
  /// makes the first write to a collection copy its buffer.
  ///
  /// Don't call `mutate` on the same store from inside `body` (for example from a
  /// callback that fires during it): the outer call stores its copy back last, and
  /// the inner call's changes are lost.
  @discardableResult
  public func mutate<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
    let pending = PendingDidSets()
    defer { pending.flush() }
    return try PendingDidSets.$current.withValue(pending) {
      var copy = _state
      defer { state = copy }
      return try body(&copy)
    }
  }
}
