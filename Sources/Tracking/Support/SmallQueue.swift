/// A first-in, first-out queue that holds its first entry inline, so that a change
/// with one thing to run allocates nothing; the entries after it go in memory the
/// queue allocates at the first of them and its user frees with ``deallocate()``.
///
/// Not an array for those: appending to an array and taking entries back out of it
/// test its buffer's uniqueness at each step, and a batch that reaches a hundred
/// reactions does both a hundred times.
///
/// **Invariant**: entries `taken..<count` of `rest` are initialized, the others are
/// not; an entry is moved out when taken, never copied (a copy would retain it).
struct SmallQueue<Element> {
  private var first: Element?
  private var rest: UnsafeMutablePointer<Element>? = nil
  private var capacity = 0
  private var count = 0
  private var taken = 0

  /// Room for this many entries after the first, when the first of them comes: a batch
  /// that reaches many reactions (a source read by fifty effects) would otherwise
  /// reallocate at the second, third, fifth, ninth...
  private static var initialCapacity: Int { 15 }

  init() {}

  /// Takes `element` (moved in: the caller's entry is not copied, so not retained and
  /// released once more).
  mutating func append(_ element: consuming Element) {
    if first == nil && count == 0 {
      first = consume element
    } else {
      if count == capacity { grow() }
      rest.unsafelyUnwrapped.advanced(by: count).initialize(to: consume element)
      count &+= 1  // below the capacity: no overflow check
    }
  }

  /// Whether the queue holds an entry or allocated memory.
  var holdsReferences: Bool { first != nil || rest != nil }

  /// Removes and returns the oldest entry.
  mutating func next() -> Element? {
    if first != nil { return first.take() }
    guard taken < count else { return nil }
    let element = rest.unsafelyUnwrapped.advanced(by: taken).move()
    taken &+= 1  // below `count` before
    if taken == count {
      // Empty again: the memory is reused from its start.
      taken = 0
      count = 0
    }
    return element
  }

  /// Frees the memory of the entries after the first. Called once, when the queue
  /// ends, empty (every entry taken).
  mutating func deallocate() {
    precondition(first == nil && taken == count, "A queue was freed with entries in it.")
    rest?.deallocate()
    rest = nil
    capacity = 0
  }

  @inline(never)
  private mutating func grow() {
    let grown = max(2 * capacity, Self.initialCapacity)
    // Only the entries not taken yet are live; they move to the start.
    rest = .spill(growing: rest, moving: count - taken, from: taken, capacity: grown)
    count -= taken
    taken = 0
    capacity = grown
  }
}
