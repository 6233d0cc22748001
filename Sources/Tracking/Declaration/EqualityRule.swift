/// What counts as a change when a tracked property is set, chosen per property with
/// ``TrackedEquality(_:)``.
///
/// By default (as Apple's macro since Swift 6.2) a write of an `Equatable` value equal to
/// the current one, or of the same object, notifies no one. That is wrong for some
/// properties: a class that is `Equatable` by content, where replacing one instance by
/// an equal other must reach the views holding the old one (TCA #3771); a value whose
/// `==` ignores what a view shows; a property whose every write is an event.
///
/// ```swift
/// @Trackable final class Editor {
///   @TrackedEquality(.identity) var document: Document   // a new instance notifies, even if ==
///   @TrackedEquality(.always) var ping = 0               // every write notifies
///   @TrackedEquality(by: \Row.revision) var row: Row     // a change of `revision` only
///   @TrackedEquality(using: Path.isSameShape) var path: Path
/// }
/// ```
///
/// The rule decides only whether a *set* notifies; an in-place mutation
/// (`editor.row.title += "!"`) always does, as before. The value is stored either way.
/// On a field of a ``TrackedState()`` struct, the rule is what the store's comparison
/// counts as a change of that field (`.always`: every write).
public enum TrackedEqualityRule: Sendable, Hashable {
  /// `==`: an equal value notifies no one. The default for `Equatable` values; writing
  /// it makes the compiler check that the type is `Equatable`.
  case equality
  /// The same object notifies no one, whatever `==` says (for a class, or an optional
  /// class reference).
  case identity
  /// Every write notifies, even of an equal value.
  case always
}

/// How the generated setters of `@TrackedEquality` properties decide (called only by
/// macro expansions).
extension TrackingRegistrar {
  /// `.equality`: notifies when the values differ by `==`.
  @inlinable @inline(__always)
  public static func _notifiesUnlessEqual<Value: Equatable>(_ oldValue: Value, _ newValue: Value) -> Bool {
    oldValue != newValue
  }

  /// `.identity`: notifies when the references differ.
  @inlinable @inline(__always)
  public static func _notifiesUnlessIdentical<Value: AnyObject>(_ oldValue: Value, _ newValue: Value) -> Bool {
    oldValue !== newValue
  }

  /// `.identity` for an optional reference.
  @inlinable @inline(__always)
  public static func _notifiesUnlessIdentical<Value: AnyObject>(_ oldValue: Value?, _ newValue: Value?) -> Bool {
    oldValue !== newValue
  }

  /// `using:`: notifies when `isEqual` says the values differ.
  @inlinable @inline(__always)
  public static func _notifies<Value>(
    _ oldValue: Value, _ newValue: Value, unlessEqualBy isEqual: (Value, Value) -> Bool
  ) -> Bool {
    !isEqual(oldValue, newValue)
  }

  /// `by:`: notifies when the values differ at `key`.
  @inlinable @inline(__always)
  public static func _notifies<Value, Key: Equatable>(
    _ oldValue: Value, _ newValue: Value, unlessSameAt key: KeyPath<Value, Key>
  ) -> Bool {
    oldValue[keyPath: key] != newValue[keyPath: key]
  }
}
