/// Whether a tracked collection's new value for an element equals the old one, so that
/// setting it notifies no one: the rule of a ``Trackable()`` class's setter, decided
/// at run time because the collections accept any value type.
/// - `Equatable` values are compared with `==`;
/// - other objects by identity;
/// - any other value is never equal (setting it always notifies).
@usableFromInline
enum ValueEquality {
  @usableFromInline
  static func areEqual<Value>(_ a: Value, _ b: Value) -> Bool {
    if let a = a as? any Equatable { return a.isEqual(to: b) }
    if Value.self is AnyObject.Type { return (a as AnyObject) === (b as AnyObject) }
    return false
  }
}

extension Equatable {
  /// Whether `other`, a value of the same dynamic type, equals this one.
  fileprivate func isEqual(to other: Any) -> Bool {
    guard let other = other as? Self else { return false }
    return self == other
  }
}
