/// A small set of property identifiers.
///
/// Identifiers below 64 live in one machine word, which covers every class with up to
/// 64 tracked properties without allocating; larger identifiers (very large classes
/// and key paths registered at run time) spill into an array.
@usableFromInline
struct PropertySet: Sendable, Equatable {
  @usableFromInline var bits: UInt64 = 0
  @usableFromInline var spilled: [Int]? = nil

  @inlinable init() {}

  @inlinable init(_ id: Int) { insert(id) }

  @inlinable var isEmpty: Bool { bits == 0 && (spilled?.isEmpty ?? true) }

  @inlinable mutating func insert(_ id: Int) {
    if id >= 0 && id < 64 {
      bits |= 1 &<< UInt64(id)
    } else if spilled == nil {
      spilled = [id]
    } else if !spilled!.contains(id) {
      spilled!.append(id)
    }
  }

  @inlinable func contains(_ id: Int) -> Bool {
    if id >= 0 && id < 64 { return bits & (1 &<< UInt64(id)) != 0 }
    return spilled?.contains(id) ?? false
  }

  @inlinable mutating func formUnion(_ other: PropertySet) {
    bits |= other.bits
    if let extra = other.spilled { for id in extra { insert(id) } }
  }

  /// The identifiers in ascending order below 64, then the spilled ones.
  var elements: [Int] {
    var result: [Int] = []
    var remaining = bits
    while remaining != 0 {
      let id = remaining.trailingZeroBitCount
      result.append(id)
      remaining &= remaining &- 1
    }
    if let extra = spilled { result += extra }
    return result
  }
}
