/// Whether a write should notify observers, as decided by the macro's generated
/// setters (matching Apple's `@Observable` since Swift 6.2): an `Equatable` value set
/// to an equal value, or an object reference set to the same object, notifies no one.
/// The value is stored either way. In-place mutation (`_modify`) always notifies, since
/// comparing would copy the value. A property may choose another rule with
/// ``TrackedEquality(_:)`` (see `EqualityRule.swift`, whose comparisons these use).
extension TrackingRegistrar {
  /// Values of a type that is neither `Equatable` nor a class always notify.
  @inlinable @inline(__always)
  public static func shouldNotify<Value>(_ oldValue: Value, _ newValue: Value) -> Bool { true }

  /// `Equatable` values notify when they differ.
  @inlinable @inline(__always)
  public static func shouldNotify<Value: Equatable>(_ oldValue: Value, _ newValue: Value) -> Bool {
    _notifiesUnlessEqual(oldValue, newValue)
  }

  /// Object references notify when they point to a different object.
  @inlinable @inline(__always)
  public static func shouldNotify<Value: AnyObject>(_ oldValue: Value, _ newValue: Value) -> Bool {
    _notifiesUnlessIdentical(oldValue, newValue)
  }

  /// `Equatable` objects notify when they differ by `==`.
  @inlinable @inline(__always)
  public static func shouldNotify<Value: Equatable & AnyObject>(_ oldValue: Value, _ newValue: Value) -> Bool {
    _notifiesUnlessEqual(oldValue, newValue)
  }
}
