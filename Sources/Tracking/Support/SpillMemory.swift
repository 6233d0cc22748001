/// The growth of a spill: the memory in which a small container (``SmallList``,
/// ``SmallQueue``, ``PullStack``) keeps the elements past those it holds inline,
/// allocated at the first of them and freed by the container.
extension UnsafeMutablePointer {
  /// Memory for `capacity` elements, into whose start the `count` initialized elements
  /// of `old` from index `start` on are moved; `old` (if any) is freed. `capacity` is
  /// at least `count`.
  static func spill(
    growing old: UnsafeMutablePointer<Pointee>?, moving count: Int, from start: Int = 0, capacity: Int
  ) -> UnsafeMutablePointer<Pointee> {
    let grown = UnsafeMutablePointer<Pointee>.allocate(capacity: capacity)
    if let old {
      grown.moveInitialize(from: old.advanced(by: start), count: count)
      old.deallocate()
    }
    return grown
  }
}
