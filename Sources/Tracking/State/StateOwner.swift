import CTrackingSupport

/// The ``StateStore`` that state values are being handed to, as the code that
/// ``TrackedState()`` generates sees it. Not meant for direct use.
///
/// A store claims every state value it holds (the values reached from its root through
/// tracked structs' fields, optionals, arrays and tracked enums' payloads): the value's
/// observers then belong to that store alone. When a store is handed a value that
/// another store claimed (a copy of that store's value), it gives its own copy a new
/// identity, so that the two stores never notify each other's readers. The new identity
/// is what any value from elsewhere gets: assigning it notifies the field's readers.
public struct StateOwner: Sendable {
  /// The store's number: unique in the process, never 0.
  @usableFromInline
  let serial: Int

  /// A new owner, for a new store.
  init() { serial = StateSerials.next() }

  /// Claims the state values in `value` (see `_$claim(for:)`);
  /// a value of any other type holds none.
  @inlinable @inline(__always)
  public func claim<Value>(_ value: Value) -> Bool { true }

  /// Claims the state values in `value`; returns `false` if one of them belongs to
  /// another store.
  @inlinable @inline(__always)
  public func claim<Value: StateIdentifiable>(_ value: Value) -> Bool { value._$claim(for: self) }

  /// Gives a new identity to every state value in `value` that belongs to another
  /// store; a value of any other type holds none.
  @inlinable @inline(__always)
  public func reidentify<Value>(_ value: inout Value) {}

  /// Gives a new identity to every state value in `value` that belongs to another
  /// store. Leaves `value` untouched (so a shared array buffer is not copied) when
  /// every state value in it is this store's.
  @inlinable @inline(__always)
  public func reidentify<Value: StateIdentifiable>(_ value: inout Value) {
    if !value._$claim(for: self) { value._$reidentify(for: self) }
  }
}

/// Numbers unique in the process: store serials (``StateOwner``) and the write stamps
/// of fields whose values cannot be compared (see `StateRegistrar.noteWrite(of:property:)`).
@usableFromInline
enum StateSerials {
  /// The last number handed out. Allocated once and never freed; only touched through
  /// C atomics. (nonisolated(unsafe): a pointer is not Sendable, the word it points to
  /// is atomic.)
  nonisolated(unsafe) static let counter: UnsafeMutablePointer<tracking_atomic_word> = {
    let word = UnsafeMutablePointer<tracking_atomic_word>.allocate(capacity: 1)
    tracking_atomic_init(word, 0)
    return word
  }()

  /// A number never handed out before, never 0.
  @usableFromInline
  static func next() -> Int {
    tracking_atomic_fetch_add(counter, 1) &+ 1
  }
}
