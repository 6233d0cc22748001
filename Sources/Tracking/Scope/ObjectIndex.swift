/// Where each entry of an ``OtherObjects`` is: an open-addressing hash table
/// from an object's storage address to its entry's position.
///
/// A storage is identified by its address, which is already unique and well spread
/// once its low (alignment) bits are dropped, so a multiplicative (Fibonacci) hash is
/// enough; the general-purpose `Hasher` (SipHash) cost more than the rest of a read.
/// The table never holds more than half its slots, so a probe ends quickly at an
/// empty one; it grows by doubling. Entries are never removed (a scope only adds
/// objects).
struct ObjectIndex {
  /// Each slot holds an entry's position plus one, or 0 when empty. Its count is a
  /// power of two.
  private var slots: [Int]
  private var count = 0
  /// `64 - log2(slots.count)`: the hash keeps the top bits of the product.
  private var shift: Int

  /// An index of `entries`, with room for twice as many.
  init(_ entries: [AccessList.Entry]) {
    let size = max(32, (entries.count * 4).nextPowerOfTwo)
    slots = Array(repeating: 0, count: size)
    shift = 64 - size.trailingZeroBitCount
    for position in entries.indices { place(position, of: entries[position].storage) }
  }

  @inline(__always)
  private static func address(of storage: RegistrarStorage) -> UInt {
    UInt(bitPattern: ObjectIdentifier(storage))
  }

  @inline(__always)
  private func firstSlot(for address: UInt) -> Int {
    Int(truncatingIfNeeded: ((address &>> 4) &* 0x9E37_79B9_7F4A_7C15) &>> UInt(shift))
  }

  /// The position of `storage`'s entry in `entries`, if it has one.
  func position(of storage: RegistrarStorage, in entries: [AccessList.Entry]) -> Int? {
    let mask = slots.count - 1
    var slot = firstSlot(for: Self.address(of: storage))
    while true {
      let stored = slots[slot]
      if stored == 0 { return nil }
      if entries[stored - 1].storage === storage { return stored - 1 }
      slot = (slot + 1) & mask
    }
  }

  /// Adds the entry at `position` (the last of `entries`), which the index lacks.
  mutating func add(_ position: Int, in entries: [AccessList.Entry]) {
    if (count + 1) * 2 > slots.count {
      self = ObjectIndex(entries)
    } else {
      place(position, of: entries[position].storage)
    }
  }

  private mutating func place(_ position: Int, of storage: RegistrarStorage) {
    let mask = slots.count - 1
    var slot = firstSlot(for: Self.address(of: storage))
    while slots[slot] != 0 { slot = (slot + 1) & mask }
    slots[slot] = position + 1
    count += 1
  }
}

extension Int {
  /// The smallest power of two at least `self` (1 for values below 1).
  fileprivate var nextPowerOfTwo: Int {
    self <= 1 ? 1 : 1 << (Int.bitWidth - (self - 1).leadingZeroBitCount)
  }
}
