import Testing

@testable import Tracking

/// Counts its debug descriptions in its test's own counter, to show how many elements
/// a description walked.
struct Counted: CustomDebugStringConvertible, Sendable {
  final class Counter: Sendable {
    let descriptions = Locked(0)
    var count: Int { descriptions.withLock { $0 } }
  }

  let value: Int
  let counter: Counter

  var debugDescription: String {
    counter.descriptions.withLock { $0 += 1 }
    return "#\(value)"
  }
}

private struct Listed: Identifiable, Equatable, CustomDebugStringConvertible {
  let id: Int
  var debugDescription: String { "L\(id)" }
}

/// How introspection describes a changed value: as `String(describing:)` does, within
/// a bound on the elements and characters it describes.
@Suite("Introspection: a changed value's bounded description")
struct BoundedDescriptionTests {
  /// Within the bound, the description is the standard library's.
  @Test func aSmallValueIsDescribedAsStringDescribingDoes() {
    let values: [Any] = [
      42, "Ada", [1, 2, 3], ["a": 1], Set([7]), Optional([1, 2]) as Any, Optional<[Int]>.none as Any, Optional("x") as Any,
      Array(0..<16), (1, "one"), 0..<1_000, ContiguousArray(0..<3), TrackedList(uniqueElements: (0..<3).map(Listed.init)),
    ]
    for value in values {
      #expect(BoundedDescription.describe(value) == String(describing: value))
    }
  }

  /// A collection past the bound: its first 16 elements as an array shows them, and how
  /// many more; the other elements are not described at all.
  @Test func aLargeCollectionIsDescribedByItsFirstElementsAndItsCount() {
    #expect(
      BoundedDescription.describe(Array(0..<1_000))
        == "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, … 984 more]")
    #expect(BoundedDescription.describe(Array(repeating: "a", count: 17)).hasSuffix(#""a", … 1 more]"#))
    #expect(BoundedDescription.describe(Optional(Array(0..<20)) as Any) == "Optional([\((0..<16).map(String.init).joined(separator: ", ")), … 4 more])")
    let counter = Counted.Counter()
    _ = BoundedDescription.describe((0..<10_000).map { Counted(value: $0, counter: counter) })
    #expect(counter.count == 16)
  }

  /// Each kind of collection that lists its elements keeps its own format: a set's,
  /// a tracked list's and a tracked dictionary's.
  @Test func aLargeCollectionKeepsItsOwnFormat() {
    let set = BoundedDescription.describe(Set(0..<100))
    #expect(set.hasPrefix("Set([") && set.hasSuffix(", … 84 more])"))
    #expect(
      BoundedDescription.describe(TrackedList(uniqueElements: (0..<20).map(Listed.init)))
        == "TrackedList([\((0..<16).map { "L\($0)" }.joined(separator: ", ")), … 4 more])")
    #expect(
      BoundedDescription.describe(TrackedDictionary(uniqueKeysWithValues: (0..<20).map { ($0, "v\($0)") }))
        == "TrackedDictionary([\((0..<16).map { "\($0): v\($0)" }.joined(separator: ", ")), … 4 more])")
    #expect(BoundedDescription.describe(ArraySlice(0..<17)) == "[\((0..<16).map(String.init).joined(separator: ", ")), … 1 more]")
  }

  /// A dictionary's pairs are shown as the dictionary shows them, `key: value`.
  @Test func aLargeDictionaryShowsItsPairsAsKeyAndValue() {
    let dictionary = Dictionary(uniqueKeysWithValues: (0..<40).map { ("k\($0)", $0) })
    let description = BoundedDescription.describe(dictionary)
    #expect(description.hasSuffix(", … 24 more]"))
    let pairs = description.dropFirst().dropLast(", … 24 more]".count).split(separator: ", ")
    #expect(pairs.count == 16)
    for pair in pairs {
      let parts = pair.split(separator: ": ")
      #expect(parts.count == 2)
      #expect(parts.last.flatMap { Int($0) }.map { "\"k\($0)\"" } == parts.first.map(String.init))
    }
  }

  /// Any description past 1 000 characters is cut there, with `…`.
  @Test func aLongDescriptionIsCut() {
    let long = String(repeating: "é", count: 5_000)
    #expect(BoundedDescription.describe(long) == String(repeating: "é", count: 1_000) + "…")
    #expect(BoundedDescription.describe(String(repeating: "é", count: 1_000)) == String(repeating: "é", count: 1_000))
    struct Wrapper { var rows = Array(0..<2_000) }
    let wrapped = BoundedDescription.describe(Wrapper())
    #expect(wrapped.count == 1_001)
    #expect(wrapped.hasPrefix("Wrapper(rows: [0, 1, 2"))
    #expect(wrapped.hasSuffix("…"))
  }
}
