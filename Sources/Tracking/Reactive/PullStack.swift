/// A computation whose pull waits for one of its inputs to be brought up to date: the
/// link to that input, the computation's `epoch` then (if it moved, the link may be
/// gone) and its ``GraphNode/staleMarks`` when its walk began (see
/// ``Computation/ensureCurrent(_:)``).
struct PullFrame {
  let node: GraphRef
  let link: LinkRef
  let epoch: UInt32
  let marks: UInt32
}

/// The frames of a pull: the first ones in memory on the caller's stack (a chain that
/// deep pulls with no allocation), the rest in memory this stack allocates, which its
/// user frees with ``deallocate()`` when the pull ends.
///
/// Not an array for the rest: an empty array is still released where the stack ends
/// (a call into the runtime, about 18 instructions), at every pull that recomputes.
struct PullStack {
  /// Frames held on the stack.
  static let inlineCapacity = 32
  private let inline: UnsafeMutableBufferPointer<PullFrame>
  private var count = 0
  /// The frames past the inline ones (`overflowCapacity` of them), made at the first.
  private var overflow: UnsafeMutablePointer<PullFrame>? = nil
  private var overflowCapacity = 0

  init(_ inline: UnsafeMutableBufferPointer<PullFrame>) { self.inline = inline }

  // Counts move by one from 0 and stay under the frames' memory: wrapping arithmetic,
  // without overflow checks (a push and a pop per computation a pull walks into).

  mutating func push(_ frame: PullFrame) {
    if count < inline.count {
      inline.baseAddress.unsafelyUnwrapped.advanced(by: count).initialize(to: frame)
    } else {
      let index = count &- inline.count
      if index == overflowCapacity { grow() }
      overflow.unsafelyUnwrapped.advanced(by: index).initialize(to: frame)
    }
    count &+= 1
  }

  /// The latest frame pushed, taken off. (A frame holds no reference: the stack's
  /// memory needs no deinitializing.)
  mutating func pop() -> PullFrame? {
    guard count > 0 else { return nil }
    count &-= 1
    return count < inline.count
      ? inline.baseAddress.unsafelyUnwrapped[count] : overflow.unsafelyUnwrapped[count &- inline.count]
  }

  /// Frees the frames past the inline ones, if any were made. Called once, when the
  /// pull ends.
  func deallocate() {
    if let overflow { overflow.deallocate() }
  }

  @inline(never)
  private mutating func grow() {
    let capacity = max(2 * overflowCapacity, Self.inlineCapacity)
    overflow = .spill(growing: overflow, moving: overflowCapacity, capacity: capacity)
    overflowCapacity = capacity
  }
}
