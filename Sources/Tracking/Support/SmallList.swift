/// A list whose first element is held inline: a propagation's stack and the lists of
/// a walk's work mostly hold one element, and then using one allocates nothing.
struct SmallList<Element> {
  private var first: Element?
  /// The elements past the first; `nil` until there is one. (An empty array would be
  /// released when the list ends, a call into the runtime even for the shared empty
  /// storage; `nil` is not.)
  private var rest: [Element]?

  init() {}

  /// The number of elements.
  var count: Int { first == nil ? 0 : 1 + (rest?.count ?? 0) }

  @inline(__always)
  mutating func append(_ element: Element) {
    if first == nil {
      first = element
    } else {
      // Past one, a list usually grows on (a propagation that reaches fifty
      // reactions): room for fifteen at once saves four reallocations.
      if rest == nil {
        var spill: [Element] = []
        spill.reserveCapacity(15)
        rest = spill
      }
      rest?.append(element)
    }
  }

  /// Removes and returns the last element.
  mutating func popLast() -> Element? {
    if let last = rest?.popLast() { return last }
    defer { first = nil }
    return first
  }

  /// Calls `body` with each element, in the order they were appended.
  @inline(__always)
  func forEach(_ body: (Element) -> Void) {
    guard let first else { return }
    body(first)
    guard let rest else { return }
    for element in rest { body(element) }
  }
}

extension SmallList: Sendable where Element: Sendable {}
