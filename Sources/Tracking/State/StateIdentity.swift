/// The identity of a state value: what decides whether a state field's new value
/// counts as *replacing* the old one (the field's readers are notified, and they
/// include everyone who read through it) or as *the same value, mutated* (a store
/// compares the two inside, and notifies only the readers of the fields that changed).
///
/// - A ``TrackedState()`` struct's identity is its ``StateRegistrar``: created with the
///   value, kept by copies and mutations, new for every value made with an initializer
///   (or decoded), and new when a ``StateStore`` receives a copy of a value another
///   store holds (see ``StateOwner``).
/// - An optional's is "none" or its wrapped value's; an array's is its elements', in
///   order (so appending, removing and reordering change it, mutating an element in
///   place does not).
/// - A ``TrackedState()`` enum's is its case plus its payloads' identities.
/// - Any other `Equatable` value is identified by its value, an object by itself, and
///   a value of any other type never has the same identity as another. (A store that
///   compares an enum's old and new payloads treats payloads of such a type as the
///   same when their bits are identical: the same value, untouched.)
public struct StateIdentity: @unchecked Sendable {
  @usableFromInline
  enum Storage {
    case object(AnyObject)
    case list([StateIdentity])
    case tagged(Int, [StateIdentity])
    case value(any Equatable)
    case opaque
  }

  @usableFromInline
  let storage: Storage

  @usableFromInline
  init(_ storage: Storage) { self.storage = storage }

  /// The identity of an enum value: its case number and its payloads' identities.
  /// Used by the code ``TrackedState()`` generates for enums.
  public static func tagged(_ tag: Int, _ payloads: [StateIdentity]) -> StateIdentity {
    StateIdentity(.tagged(tag, payloads))
  }

  /// The identity of an ordered sequence of values: its elements', in order.
  public static func list(_ elements: [StateIdentity]) -> StateIdentity {
    StateIdentity(.list(elements))
  }

  /// Whether the two identities are the same. Never true for an opaque identity, so
  /// a value of a type without identity always counts as replaced.
  public func isSame(as other: StateIdentity) -> Bool {
    switch (storage, other.storage) {
    case let (.object(a), .object(b)):
      return a === b
    case let (.list(a), .list(b)):
      return a.count == b.count && zip(a, b).allSatisfy { $0.isSame(as: $1) }
    case let (.tagged(t, a), .tagged(u, b)):
      return t == u && a.count == b.count && zip(a, b).allSatisfy { $0.isSame(as: $1) }
    case let (.value(a), .value(b)):
      return Self.equal(a, b)
    default:
      return false
    }
  }

  private static func equal<A: Equatable>(_ a: A, _ b: Any) -> Bool {
    guard let b = b as? A else { return false }
    return a == b
  }
}

// MARK: - The identity of any value

extension StateIdentity {
  /// A value of a type with no notion of identity: never the same as another.
  @inlinable @inline(__always)
  public static func of<Value>(_ value: Value) -> StateIdentity { StateIdentity(.opaque) }

  /// An `Equatable` value is identified by its value.
  @inlinable @inline(__always)
  public static func of<Value: Equatable>(_ value: Value) -> StateIdentity { StateIdentity(.value(value)) }

  /// An object is identified by itself.
  @inlinable @inline(__always)
  public static func of<Value: AnyObject>(_ value: Value) -> StateIdentity { StateIdentity(.object(value)) }

  /// An `Equatable` object is identified by itself.
  @inlinable @inline(__always)
  public static func of<Value: AnyObject & Equatable>(_ value: Value) -> StateIdentity {
    StateIdentity(.object(value))
  }

  /// A state value is identified by its own `_$identity`.
  @inlinable @inline(__always)
  public static func of<Value: StateIdentifiable>(_ value: Value) -> StateIdentity { value._$identity }

  /// A state value is identified by its own identity, not by `==`.
  @inlinable @inline(__always)
  public static func of<Value: StateIdentifiable & Equatable>(_ value: Value) -> StateIdentity {
    value._$identity
  }
}
