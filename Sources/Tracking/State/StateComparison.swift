// How the code that ``TrackedState()`` generates compares an old and a new value: a
// struct's fields (`field`, which records what changed) and an enum's payloads
// (`payload`, which says whether the payload was replaced). The overloads pick by the
// static type of the value, so each comparison is specialized and inlined into the
// generated code; the rules are listed on ``StateChanges``.

extension StateChanges {
  /// Compares field `id` of a value of an incomparable type: changed if it was
  /// written since the old value and the bits differ.
  @inlinable @inline(__always)
  public mutating func field<Value>(_ id: Int, of fields: Fields, _ old: Value, _ new: Value) {
    if fields.wasWritten(id) && !StateBits.identical(old, new) { record(fields.observation, id) }
  }

  /// Compares field `id`, an `unowned` reference, by its stamps only: changed if it
  /// was written since the old value. (Loading it could trap: its object may be gone.)
  @inlinable @inline(__always)
  public mutating func field(_ id: Int, of fields: Fields) {
    if fields.wasWritten(id) { record(fields.observation, id) }
  }

  /// Compares an `Equatable` field with `==`.
  @inlinable @inline(__always)
  public mutating func field<Value: Equatable>(_ id: Int, of fields: Fields, _ old: Value, _ new: Value) {
    if old != new { record(fields.observation, id) }
  }

  /// Compares an object field by identity.
  @inlinable @inline(__always)
  public mutating func field<Value: AnyObject>(_ id: Int, of fields: Fields, _ old: Value, _ new: Value) {
    if old !== new { record(fields.observation, id) }
  }

  /// Compares an `Equatable` object field with `==`, as ``Trackable()`` setters do.
  @inlinable @inline(__always)
  public mutating func field<Value: AnyObject & Equatable>(_ id: Int, of fields: Fields, _ old: Value, _ new: Value) {
    if old != new { record(fields.observation, id) }
  }

  /// `@TrackedEquality(.identity)`: compares an object field by identity, whatever `==`
  /// says. (Called only by macro expansions.)
  @inlinable @inline(__always)
  public mutating func _fieldByIdentity<Value: AnyObject>(_ id: Int, of fields: Fields, _ old: Value, _ new: Value) {
    if TrackingRegistrar._notifiesUnlessIdentical(old, new) { record(fields.observation, id) }
  }

  /// `@TrackedEquality(.identity)` for an optional reference.
  @inlinable @inline(__always)
  public mutating func _fieldByIdentity<Value: AnyObject>(_ id: Int, of fields: Fields, _ old: Value?, _ new: Value?) {
    if TrackingRegistrar._notifiesUnlessIdentical(old, new) { record(fields.observation, id) }
  }

  /// `@TrackedEquality(.equality)`: compares with `==` (the type must be `Equatable`).
  @inlinable @inline(__always)
  public mutating func _fieldByEquality<Value: Equatable>(_ id: Int, of fields: Fields, _ old: Value, _ new: Value) {
    if TrackingRegistrar._notifiesUnlessEqual(old, new) { record(fields.observation, id) }
  }

  /// `@TrackedEquality(using:)`: changed when `isEqual` says the values differ.
  @inlinable @inline(__always)
  public mutating func _field<Value>(
    _ id: Int, of fields: Fields, _ old: Value, _ new: Value, unlessEqualBy isEqual: (Value, Value) -> Bool
  ) {
    if TrackingRegistrar._notifies(old, new, unlessEqualBy: isEqual) { record(fields.observation, id) }
  }

  /// `@TrackedEquality(by:)`: changed when the values differ at `key`.
  @inlinable @inline(__always)
  public mutating func _field<Value, Key: Equatable>(
    _ id: Int, of fields: Fields, _ old: Value, _ new: Value, unlessSameAt key: KeyPath<Value, Key>
  ) {
    if TrackingRegistrar._notifies(old, new, unlessSameAt: key) { record(fields.observation, id) }
  }

  /// Compares a state field: a new identity notifies the field's readers; the same
  /// identity is compared inside, and notifies only what changed there.
  @inlinable @inline(__always)
  public mutating func field<Value: StateIdentifiable>(_ id: Int, of fields: Fields, _ old: Value, _ new: Value) {
    if replaced(old, new) {
      record(fields.observation, id)
      claim(new)
    }
  }

  /// Compares a state field by identity and inside, whatever `==` says.
  @inlinable @inline(__always)
  public mutating func field<Value: StateIdentifiable & Equatable>(
    _ id: Int, of fields: Fields, _ old: Value, _ new: Value
  ) {
    if replaced(old, new) {
      record(fields.observation, id)
      claim(new)
    }
  }

  /// Whether the state value `new` replaced `old` (a different identity); when it did
  /// not, the changes inside it are recorded.
  @inlinable @inline(__always)
  mutating func replaced<Value: StateIdentifiable>(_ old: Value, _ new: Value) -> Bool {
    !StateBits.identical(old, new) && new._$reportChanges(from: old, into: &self)
  }

  // MARK: Enum payloads

  /// Whether a payload of an incomparable type was replaced: when its bits differ.
  @inlinable @inline(__always)
  public mutating func payload<Value>(_ old: Value, _ new: Value) -> Bool {
    !StateBits.identical(old, new)
  }

  /// Whether an `Equatable` payload was replaced: when it is not equal.
  @inlinable @inline(__always)
  public mutating func payload<Value: Equatable>(_ old: Value, _ new: Value) -> Bool {
    old != new
  }

  /// Whether an object payload was replaced: when it is another object.
  @inlinable @inline(__always)
  public mutating func payload<Value: AnyObject>(_ old: Value, _ new: Value) -> Bool {
    old !== new
  }

  /// Whether an `Equatable` object payload was replaced: when it is another object
  /// (an object payload is identified by itself, as in an object field).
  @inlinable @inline(__always)
  public mutating func payload<Value: AnyObject & Equatable>(_ old: Value, _ new: Value) -> Bool {
    old !== new
  }

  /// Whether a state payload was replaced (a different identity); when it was not, the
  /// changes inside it are recorded.
  @inlinable @inline(__always)
  public mutating func payload<Value: StateIdentifiable>(_ old: Value, _ new: Value) -> Bool {
    replaced(old, new)
  }

  /// Whether a state payload was replaced, whatever `==` says.
  @inlinable @inline(__always)
  public mutating func payload<Value: StateIdentifiable & Equatable>(_ old: Value, _ new: Value) -> Bool {
    replaced(old, new)
  }
}

/// Bitwise comparison of two values of one type.
@usableFromInline
enum StateBits {
  /// Whether `a` and `b` have identical bits, and so are the same value: the same
  /// objects, the same buffers, the same inline data. (Bits may differ for equal values,
  /// in padding for example; so `false` means only "maybe different".)
  @inlinable @inline(__always)
  static func identical<Value>(_ a: Value, _ b: Value) -> Bool {
    withUnsafeBytes(of: a) { x in
      withUnsafeBytes(of: b) { y in
        let count = x.count
        var offset = 0
        while offset &+ 8 <= count {
          let left = x.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
          let right = y.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
          if left != right { return false }
          offset &+= 8
        }
        while offset < count {
          if x[offset] != y[offset] { return false }
          offset &+= 1
        }
        return true
      }
    }
  }
}
