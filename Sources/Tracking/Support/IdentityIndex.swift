/// Where each object of a list is, by identity, kept once the list is long enough that a
/// linear search costs more than a hash: the computations a one-shot scope read
/// (``ComputationReads``). (An ``AccessList`` has a table of its own,
/// ``ObjectIndex``, tuned for the read path.)
///
/// The owner keeps its elements; this only maps each one's identity to its position.
struct IdentityIndex {
  private var positions: [ObjectIdentifier: Int]?

  /// Whether the table is kept (the list is long).
  var isBuilt: Bool { positions != nil }

  /// The position of `object`: from the table once there is one, else from `search`.
  @inline(__always)
  func position(of object: AnyObject, orSearch search: () -> Int?) -> Int? {
    if let positions { return positions[ObjectIdentifier(object)] }
    return search()
  }

  /// The list now holds `count` elements, the last being `object`; `element` gives the
  /// one at a position, to build the table when the list passes `threshold` elements.
  /// (The threshold is the owner's, not stored here: the index stays one word wide.)
  mutating func appended(_ object: AnyObject, count: Int, threshold: Int, element: (Int) -> AnyObject) {
    if positions != nil {
      positions![ObjectIdentifier(object)] = count - 1
    } else if count > threshold {
      var built: [ObjectIdentifier: Int] = [:]
      for position in 0..<count { built[ObjectIdentifier(element(position))] = position }
      positions = built
    }
  }
}
