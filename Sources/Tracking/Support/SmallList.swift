/// A list whose first element is held inline: a propagation's stack and the lists of
/// a walk's work mostly hold one element, and then using one allocates nothing. The
/// elements past the first go in memory the list allocates at the second and frees
/// when it ends (see ``deallocate()``).
///
/// Not an array for those: appending to an array and popping from it test its
/// buffer's uniqueness at each step (a propagation that reaches a hundred reactions
/// does both a hundred times), and an array is released where the list ends, a call
/// into the runtime even when it is `nil`. Noncopyable, so that the memory has one
/// owner, which frees it.
///
/// **Invariant**: the first `restCount` elements of `rest` are initialized; `first` is
/// `nil` only when the list is empty.
struct SmallList<Element>: ~Copyable {
  private var first: Element?
  private var rest: UnsafeMutablePointer<Element>? = nil
  private var restCount = 0
  private var restCapacity = 0

  init() {}

  /// The number of elements.
  var count: Int { first == nil ? 0 : 1 + restCount }

  @inline(__always)
  mutating func append(_ element: consuming Element) {
    if first == nil {
      first = consume element
    } else {
      if restCount == restCapacity { grow() }
      rest.unsafelyUnwrapped.advanced(by: restCount).initialize(to: consume element)
      restCount &+= 1  // below the capacity: no overflow check
    }
  }

  /// Removes and returns the last element.
  @inline(__always)
  mutating func popLast() -> Element? {
    guard restCount == 0 else {
      restCount &-= 1  // above 0 here
      return rest.unsafelyUnwrapped.advanced(by: restCount).move()
    }
    return first.take()
  }

  /// Calls `body` with each element, in the order they were appended.
  @inline(__always)
  func forEach(_ body: (Element) -> Void) {
    guard let first else { return }
    body(first)
    guard let rest else { return }
    for index in 0..<restCount { body(rest[index]) }
  }

  /// Past one, a list usually grows on (a propagation that reaches fifty reactions):
  /// room for fifteen at once saves four reallocations.
  @inline(never)
  private mutating func grow() {
    let capacity = max(2 * restCapacity, 15)
    rest = .spill(growing: rest, moving: restCount, capacity: capacity)
    restCapacity = capacity
  }

  /// Frees the memory of the elements past the first, deinitializing those still in
  /// it; the list keeps its first element and can grow again. Every owner calls it
  /// where the list ends, although the deinit does the same: the Swift 6.3 runtime
  /// skips the deinit of a generic noncopyable struct whose fields are all trivial
  /// when the struct is destroyed through its metadata, as it is from another file
  /// of a module built without whole-module optimization (a debug build; fixed by
  /// swiftlang/swift#89686, in 6.4). The lists here hold pointers, so without this
  /// call a debug build would leak the memory of every list that grew.
  mutating func deallocate() {
    Self.free(rest, count: restCount)
    rest = nil
    restCount = 0
    restCapacity = 0
  }

  /// Removes every element, keeping the memory for those past the first when it holds
  /// at most `limit` of them (a list kept for reuse then appends without allocating),
  /// and freeing it otherwise.
  @inline(__always)
  mutating func removeAll(keepingCapacityUpTo limit: Int) {
    // An empty list holds no element past the first either (see the invariant), but
    // may hold memory for them, if it was emptied by `popLast()`.
    guard first != nil else {
      if restCapacity > limit { deallocate() }
      return
    }
    first = nil
    guard restCapacity <= limit else { return deallocate() }
    rest?.deinitialize(count: restCount)
    restCount = 0
  }

  private static func free(_ rest: UnsafeMutablePointer<Element>?, count: Int) {
    guard let rest else { return }
    rest.deinitialize(count: count)
    rest.deallocate()
  }

  deinit { Self.free(rest, count: restCount) }
}

extension SmallList: @unchecked Sendable where Element: Sendable {}
