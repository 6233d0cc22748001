import Testing
@testable import Tracking

/// The set of property numbers a scope read of one object: a word of bits for numbers
/// below 64, an array for the others.
@Suite("Property set")
struct PropertySetTests {
  /// Inserts each of `ids` twice into `set`: whether each was new the first time, and
  /// the second.
  static func insertTwice(_ ids: [Int], into set: inout PropertySet) -> [(Bool, Bool)] {
    ids.map { id in
      let first = set.insert(id)
      let second = set.insert(id)
      return (first, second)
    }
  }

  @Test func aNumberBelow64IsNewOnlyOnce() {
    var set = PropertySet()
    let outcomes = Self.insertTwice([0, 63], into: &set)
    #expect(outcomes.map(\.0) == [true, true])
    #expect(outcomes.map(\.1) == [false, false])
    #expect(set.contains(0) && set.contains(63))
    #expect(!set.contains(1))
    #expect(set.identifiers == [0, 63])
  }

  @Test func aNumberWithNoBitIsKeptApartAndNewOnlyOnce() {
    var set = PropertySet(5)
    #expect(!set.contains(64) && !set.contains(1_000) && !set.contains(-1))
    let outcomes = Self.insertTwice([64, 1_000, -1], into: &set)
    #expect(outcomes.map(\.0) == [true, true, true])
    #expect(outcomes.map(\.1) == [false, false, false])
    #expect(set.contains(64) && set.contains(1_000) && set.contains(-1))
    #expect(set.bits == 1 << 5)
    #expect(set.identifiers == [5, 64, 1_000, -1])
  }

  @Test func aUnionKeepsBothKindsOnce() {
    var set = PropertySet(1)
    set.insert(100)
    var other = PropertySet(2)
    other.insert(100)
    other.insert(200)
    set.formUnion(other)
    #expect(set.identifiers == [1, 2, 100, 200])
  }

  /// Equal sets: the same bits, the same spilled numbers in the same order, and both or
  /// neither standing for every property. (The observer-reuse rule compares a run's
  /// reads with the previous run's this way.)
  @Test func equalityComparesTheBitsTheSpilledNumbersAndAll() {
    var spilled = PropertySet(3)
    spilled.insert(100)
    var same = PropertySet(3)
    same.insert(100)
    var otherSpilled = PropertySet(3)
    otherSpilled.insert(101)
    var all = PropertySet(3)
    all.formUnion(.all)
    #expect(PropertySet(3) == PropertySet(3))
    #expect(PropertySet(3) != PropertySet(4))
    #expect(spilled == same)
    #expect(spilled != PropertySet(3))
    #expect(PropertySet(3) != spilled)
    #expect(spilled != otherSpilled)
    #expect(all != PropertySet(3))
    #expect(all == all)
  }
}
