/// A small set of property identifiers, or "every property".
///
/// Identifiers below 64 live in one machine word, which covers every class with up to
/// 64 tracked properties without allocating; larger identifiers (very large classes
/// and key paths registered at run time) spill into an array. ``all`` stands for every
/// property of an object, present and future (whole-object observation).
@usableFromInline
struct PropertySet: Sendable, Equatable {
  @usableFromInline var bits: UInt64 = 0
  @usableFromInline var spilled: [Int]? = nil
  @usableFromInline var includesAll = false

  @inlinable init() {}

  @inlinable init(_ id: Int) { insert(id) }

  /// The properties whose bits are set in `bits` (identifiers below 64).
  init(bits: UInt64) { self.bits = bits }

  /// Every property.
  static var all: PropertySet {
    var set = PropertySet()
    set.includesAll = true
    return set
  }

  /// Inserts `id`; returns whether it was new.
  @inlinable @discardableResult
  mutating func insert(_ id: Int) -> Bool {
    // One unsigned comparison covers both bounds.
    if UInt(bitPattern: id) < 64 {
      let bit: UInt64 = 1 &<< UInt64(id)
      guard bits & bit == 0 else { return false }
      bits |= bit
      return true
    }
    return insertSpilled(id)
  }

  /// ``insert(_:)`` for an identifier that has no bit: out of line, so that the inlined
  /// part is the bit test.
  @usableFromInline @inline(never)
  mutating func insertSpilled(_ id: Int) -> Bool {
    if spilled == nil {
      spilled = [id]
      return true
    }
    guard !spilled!.contains(id) else { return false }
    spilled!.append(id)
    return true
  }

  @inlinable func contains(_ id: Int) -> Bool {
    if includesAll { return true }
    if UInt(bitPattern: id) < 64 { return hasBit(id) }
    return spilled?.contains(id) ?? false
  }

  /// Whether `id` is below 64 and its bit is set: the one test a scope makes for a
  /// read it has made already (see ``AccessList/record(into:_:_:type:)``). `false` for
  /// any other identifier, whether in the set or not.
  @inlinable func hasBit(_ id: Int) -> Bool {
    UInt(bitPattern: id) < 64 && bits & (1 &<< UInt64(id)) != 0
  }

  @inlinable mutating func formUnion(_ other: PropertySet) {
    bits |= other.bits
    includesAll = includesAll || other.includesAll
    if let extra = other.spilled { for id in extra { insert(id) } }
  }

  /// Equal when they hold the same bits, the same spilled identifiers in the same
  /// order, and both or neither stand for every property (what the synthesized `==`
  /// compared). Written out so that the common case, nothing spilled, is always a few
  /// inlined instructions: the optimizer inlined the synthesized one, which compares
  /// the arrays too, or left it out of line, as the code around changed.
  @inlinable @inline(__always)
  static func == (lhs: PropertySet, rhs: PropertySet) -> Bool {
    lhs.bits == rhs.bits && lhs.includesAll == rhs.includesAll
      && ((lhs.spilled == nil && rhs.spilled == nil) || spilledEqual(lhs, rhs))
  }

  @usableFromInline @inline(never)
  static func spilledEqual(_ lhs: PropertySet, _ rhs: PropertySet) -> Bool {
    lhs.spilled == rhs.spilled
  }

  /// The identifiers, ascending below 64, then the spilled ones (not ``all``).
  var identifiers: [Int] {
    var result: [Int] = []
    var remaining = bits
    while remaining != 0 {
      result.append(remaining.trailingZeroBitCount)
      remaining &= remaining &- 1
    }
    return result + (spilled ?? [])
  }
}
