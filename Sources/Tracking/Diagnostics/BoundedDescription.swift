/// How introspection describes a changed value (``TrackingChange/oldValue``,
/// ``TrackingChange/newValue``): as `String(describing:)` does, within a bound.
///
/// Introspection describes the value at every change it records, on the mutating
/// thread. The description of an array, a set or a dictionary walks every element, so
/// a model with a large array would pay thousands of element descriptions per write
/// while introspection is on. Bounded instead:
/// - a collection whose description lists every element (``ListsEveryElement``: the
///   standard library's arrays, sets and dictionaries, and the tracked collections)
///   with more than ``elementLimit`` elements is described by its first
///   ``elementLimit``, in the collection's own format, and how many more it has:
///   `[1, 2, 3, … 997 more]`, `Set([…, … 40 more])`, `["a": 1, … 40 more]`;
/// - a description longer than ``characterLimit`` characters is cut there and ends
///   with `…`.
///
/// Other values, and other collections (a range, `Data`: their descriptions are short),
/// keep their own description, cut. So does a collection inside another value (an
/// array in a struct).
enum BoundedDescription {
  /// The elements of a collection described before its count of the others.
  static let elementLimit = 16
  /// The characters a description keeps.
  static let characterLimit = 1_000

  /// `value`'s description, bounded.
  static func describe(_ value: Any) -> String {
    cut(describeListing(in: value) ?? String(describing: value))
  }

  /// The bounded description of `value` if it is a collection that lists every
  /// element and has too many, or an optional one (`Optional([1, 2, … 998 more])`,
  /// as an optional's description wraps its value's); `nil` otherwise. (A cast to the
  /// protocol would look through the optional and lose the wrapping.)
  private static func describeListing(in value: Any) -> String? {
    if let optional = value as? any OptionalValue {
      guard let wrapped = optional.wrapped, let inner = describeListing(in: wrapped) else { return nil }
      return "Optional(\(inner))"
    }
    return (value as? any ListsEveryElement)?.boundedDescription()
  }

  /// `elements`' first ``elementLimit`` elements, each described by `element`, between
  /// `open` and `close`, and how many more there are; `nil` if there are no more.
  static func listing<C: Collection>(
    _ elements: C, open: String = "[", close: String = "]",
    element: (C.Element) -> String = { String(reflecting: $0) }
  ) -> String? {
    let count = elements.count
    guard count > elementLimit else { return nil }
    let shown = elements.prefix(elementLimit).map(element)
    return "\(open)\(shown.joined(separator: ", ")), … \(count - elementLimit) more\(close)"
  }

  private static func cut(_ text: String) -> String {
    // `utf8.count` is constant-time for a native string; a description this short in
    // bytes is short in characters too.
    guard text.utf8.count > characterLimit, text.count > characterLimit else { return text }
    return String(text.prefix(characterLimit)) + "…"
  }
}

/// A collection whose description lists every element, which ``BoundedDescription``
/// describes by its first elements once it has too many.
protocol ListsEveryElement {
  /// The first ``BoundedDescription/elementLimit`` elements as the collection's own
  /// description shows them, and how many more (``BoundedDescription/listing(_:open:close:element:)``);
  /// `nil` when there are no more, so that the collection's own description is used.
  func boundedDescription() -> String?
}

extension Array: ListsEveryElement {
  func boundedDescription() -> String? { BoundedDescription.listing(self) }
}

extension ContiguousArray: ListsEveryElement {
  func boundedDescription() -> String? { BoundedDescription.listing(self) }
}

extension ArraySlice: ListsEveryElement {
  func boundedDescription() -> String? { BoundedDescription.listing(self) }
}

extension Set: ListsEveryElement {
  func boundedDescription() -> String? { BoundedDescription.listing(self, open: "Set([", close: "])") }
}

extension Dictionary: ListsEveryElement {
  func boundedDescription() -> String? {
    BoundedDescription.listing(self) { "\(String(reflecting: $0.key)): \(String(reflecting: $0.value))" }
  }
}

/// An optional of any type, to look inside it (``BoundedDescription``).
private protocol OptionalValue {
  var wrapped: Any? { get }
}

extension Optional: OptionalValue {
  fileprivate var wrapped: Any? { self.map { $0 } }
}
