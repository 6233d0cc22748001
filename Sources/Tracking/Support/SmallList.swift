/// A list whose first element is held inline: most of the runtime's lists (the
/// observers a write notifies, a propagation's stack, a pull's waiting frames) hold
/// one element, and then using one allocates nothing.
struct SmallList<Element> {
  private var first: Element?
  private var rest: [Element] = []

  init() {}

  init(_ element: Element) { first = element }

  var isEmpty: Bool { first == nil }

  var count: Int { first == nil ? 0 : 1 + rest.count }

  /// The element, when there is exactly one, moved out of the list (read from a
  /// variable instead, a reference would be retained for the caller).
  consuming func takeOnly() -> Element? { rest.isEmpty ? first.take() : nil }

  @inline(__always)
  mutating func append(_ element: Element) {
    if first == nil {
      first = element
    } else {
      rest.append(element)
    }
  }

  /// Makes room for `count` elements beyond the first, once: a caller that knows the
  /// most it will append (a registrar's scan) allocates once.
  mutating func reserveCapacityForRest(_ count: Int) {
    if rest.capacity == 0 { rest.reserveCapacity(Swift.max(count, 1)) }
  }

  /// Removes and returns the last element.
  mutating func popLast() -> Element? {
    if let last = rest.popLast() { return last }
    defer { first = nil }
    return first
  }

  subscript(index: Int) -> Element { index == 0 ? first! : rest[index - 1] }

  func forEach(_ body: (Element) -> Void) {
    guard let first else { return }
    body(first)
    for element in rest { body(element) }
  }

  func contains(where predicate: (Element) -> Bool) -> Bool {
    guard let first else { return false }
    return predicate(first) || rest.contains(where: predicate)
  }
}

extension SmallList: Sendable where Element: Sendable {}
