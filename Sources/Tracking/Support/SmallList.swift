/// A list whose first element is held inline: a propagation's stack and a pull's
/// waiting frames mostly hold one element, and then using one allocates nothing.
struct SmallList<Element> {
  private var first: Element?
  private var rest: [Element] = []

  init() {}

  init(_ element: Element) { first = element }

  var isEmpty: Bool { first == nil }

  @inline(__always)
  mutating func append(_ element: Element) {
    if first == nil {
      first = element
    } else {
      rest.append(element)
    }
  }

  /// Makes room for `count` elements beyond the first, once: a caller that knows the
  /// most it will append (a pull, room for a deep chain) allocates once.
  mutating func reserveCapacityForRest(_ count: Int) {
    if rest.capacity == 0 { rest.reserveCapacity(Swift.max(count, 1)) }
  }

  /// Removes and returns the last element.
  mutating func popLast() -> Element? {
    if let last = rest.popLast() { return last }
    defer { first = nil }
    return first
  }

  /// Calls `body` with each element, in the order they were appended.
  @inline(__always)
  func forEach(_ body: (Element) -> Void) {
    guard let first else { return }
    body(first)
    for element in rest { body(element) }
  }
}

extension SmallList: Sendable where Element: Sendable {}
