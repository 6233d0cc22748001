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
/// deep pulls with no allocation), the rest in an array.
struct PullStack {
  /// Frames held on the stack.
  static let inlineCapacity = 32
  private let inline: UnsafeMutableBufferPointer<PullFrame>
  private var count = 0
  private var overflow: [PullFrame] = []

  init(_ inline: UnsafeMutableBufferPointer<PullFrame>) { self.inline = inline }

  mutating func push(_ frame: PullFrame) {
    if count < inline.count {
      inline.baseAddress.unsafelyUnwrapped.advanced(by: count).initialize(to: frame)
    } else {
      overflow.append(frame)
    }
    count += 1
  }

  /// The latest frame pushed, taken off. (A frame holds no reference: the stack's
  /// memory needs no deinitializing.)
  mutating func pop() -> PullFrame? {
    guard count > 0 else { return nil }
    count -= 1
    return count < inline.count ? inline[count] : overflow.removeLast()
  }
}
