/// How introspection describes a changed value (``TrackingChange/oldValue``,
/// ``TrackingChange/newValue``): as `String(describing:)` does, within a bound.
///
/// Introspection describes the value at every change it records, on the mutating
/// thread. A description of a whole collection walks every element, so a model with a
/// large array would pay thousands of element descriptions per write while
/// introspection is on. Bounded instead:
/// - a collection (a `String` is not one here) of more than ``elementLimit`` elements
///   is described by its first ``elementLimit`` elements and how many more it has:
///   `[1, 2, 3, … 997 more]`, or `["a": 1, … 40 more]` for a dictionary's key-value
///   pairs (the type's own description is not used: it would walk them all);
/// - a description longer than ``characterLimit`` characters is cut there and ends
///   with `…`.
///
/// A collection inside another value (an array in a struct) is described by the
/// value's own description, then cut.
enum BoundedDescription {
  /// The elements of a collection described before its count of the others.
  static let elementLimit = 16
  /// The characters a description keeps.
  static let characterLimit = 1_000

  /// `value`'s description, bounded.
  static func describe(_ value: Any) -> String {
    cut(describeCollection(in: value) ?? String(describing: value))
  }

  /// The bounded description of `value` if it is a collection, or an optional one
  /// (`Optional([1, 2, … 998 more])`, as an optional's description wraps its value's);
  /// `nil` for any other value. (A cast to `any Collection` would look through the
  /// optional and lose the wrapping.)
  private static func describeCollection(in value: Any) -> String? {
    if let optional = value as? any OptionalValue {
      guard let wrapped = optional.wrapped, let inner = describeCollection(in: wrapped) else { return nil }
      return "Optional(\(inner))"
    }
    guard !(value is any StringProtocol), let collection = value as? any Collection else { return nil }
    return describe(collection: collection)
  }

  private static func describe<C: Collection>(collection: C) -> String {
    let count = collection.count
    guard count > elementLimit else { return String(describing: collection) }
    // As the standard library's collections show their elements: debug descriptions,
    // and a dictionary's pairs as `key: value`. (No `Mirror`: a type's custom mirror
    // may do work of its own.)
    let shown =
      (collection as? any KeyValuePairs)?.describePairs(limit: elementLimit)
      ?? collection.prefix(elementLimit).map { String(reflecting: $0) }
    return "[\(shown.joined(separator: ", ")), … \(count - elementLimit) more]"
  }

  private static func cut(_ text: String) -> String {
    // `utf8.count` is constant-time for a native string; a description this short in
    // bytes is short in characters too.
    guard text.utf8.count > characterLimit, text.count > characterLimit else { return text }
    return String(text.prefix(characterLimit)) + "…"
  }
}

/// An optional of any type, to look inside it (``BoundedDescription``).
private protocol OptionalValue {
  var wrapped: Any? { get }
}

extension Optional: OptionalValue {
  fileprivate var wrapped: Any? { self.map { $0 } }
}

/// A dictionary, to show its pairs as `key: value` (``BoundedDescription``).
private protocol KeyValuePairs {
  func describePairs(limit: Int) -> [String]
}

extension Dictionary: KeyValuePairs {
  fileprivate func describePairs(limit: Int) -> [String] {
    prefix(limit).map { "\(String(reflecting: $0.key)): \(String(reflecting: $0.value))" }
  }
}
