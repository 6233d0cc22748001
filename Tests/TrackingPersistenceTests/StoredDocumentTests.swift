import Foundation
import Testing

@testable import TrackingPersistence

@Suite("Stored documents")
struct StoredDocumentTests {
  private func document(_ json: String) throws -> StoredDocument {
    try StoredDocument(parsing: Data(json.utf8))
  }

  private func text(_ data: Data?) -> String? { data.map { String(decoding: $0, as: UTF8.self) } }

  @Test func anObjectSplitsIntoItsPropertiesBytesAsWritten() throws {
    let stored = try document(#" { "b" : [1, {"x": "}"}] , "a":"q\"uote", "c": null, "d": -1.5e3, "e": {} } "#)
    #expect(Set(stored.fields.keys) == ["a", "b", "c", "d", "e"])
    #expect(text(stored.fields["b"]) == #"[1, {"x": "}"}]"#)
    #expect(text(stored.fields["a"]) == #""q\"uote""#)
    #expect(text(stored.fields["c"]) == "null")
    #expect(text(stored.fields["d"]) == "-1.5e3")
    #expect(text(stored.fields["e"]) == "{}")
    #expect(text(stored.serialized()) == #"{"a":"q\"uote","b":[1, {"x": "}"}],"c":null,"d":-1.5e3,"e":{}}"#)
  }

  @Test func keysWithEscapesAreReadAsStringsAndWrittenBack() throws {
    let stored = try document(#"{"caf\u00e9": 1, "tab\t": 2}"#)
    #expect(Set(stored.fields.keys) == ["café", "tab\t"])
    #expect(try document(text(stored.serialized())!) == stored)
  }

  @Test func aValueThatIsNotAnObjectIsOneIndivisibleProperty() throws {
    let stored = try document(" [1, 2] ")
    #expect(stored.fields == [StoredDocument.wholeValueKey: Data("[1, 2]".utf8)])
    #expect(text(stored.serialized()) == "[1, 2]")
    let patched = stored.applying([StoredDocument.wholeValueKey: .set(Data("[3]".utf8), base: Data("[1, 2]".utf8))])
    #expect(text(patched.serialized()) == "[3]")
  }

  @Test(arguments: [
    "", "{", "{\"a\":}", "{\"a\" 1}", "{\"a\":1,}", "{\"a\":1}}", "[1,]", "garbage", "{\"a\":tru}",
    "{\"a\":\"unterminated}", "{a:1}", "\u{0}",
  ])
  func malformedTextIsRejected(_ json: String) {
    #expect(throws: StoredDocument.Malformed.self) { try document(json) }
  }

  @Test func deepNestingDoesNotRecurse() throws {
    let depth = 100_000
    let json = "{\"deep\":" + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}"
    #expect(try document(json).fields["deep"]?.count == 2 * depth)
  }

  @Test func aPatchSetsRemovesAndFillsOnlyWhatIsMissing() throws {
    let stored = try document(#"{"a":1,"b":2,"c":3}"#)
    let patched = stored.applying([
      "a": .set(Data("10".utf8), base: Data("1".utf8)), "b": .remove(base: Data("2".utf8)),
      "c": .setIfAbsent(Data("30".utf8)), "d": .setIfAbsent(Data("40".utf8)),
    ])
    #expect(text(patched.serialized()) == #"{"a":10,"c":3,"d":40}"#)
    #expect(patched.changedKeys(comparedTo: stored) == ["a", "b", "d"])
  }

  @Test func aNewerPatchReplacesAnOlderOneKeepingItsBaseButDefaultsNeverReplaceAChange() {
    let (zero, one, two, three) = (Data("0".utf8), Data("1".utf8), Data("2".utf8), Data("3".utf8))
    let older: Patch = ["a": .set(one, base: nil), "b": .set(two, base: zero)]
    let newer: Patch = ["a": .setIfAbsent(zero), "b": .remove(base: two), "c": .set(three, base: nil)]
    #expect(
      older.updated(with: newer) == ["a": .set(one, base: nil), "b": .remove(base: zero), "c": .set(three, base: nil)])
  }

  @Test func aByteOrderMarkIsSkippedAndTextThatIsNotUTF8IsMalformed() throws {
    let marked = Data([0xEF, 0xBB, 0xBF]) + Data(#"{"a":1}"#.utf8)
    #expect(try StoredDocument(parsing: marked).fields == ["a": Data("1".utf8)])
    #expect(throws: StoredDocument.Malformed.self) { try StoredDocument(parsing: Data([0x22, 0xC3, 0x28, 0x22])) }
  }

  @Test func aRepeatedKeyTakesItsLastValue() throws {
    #expect(try document(#"{"a":1,"b":2,"a":3}"#).fields == ["a": Data("3".utf8), "b": Data("2".utf8)])
  }

  @Test(arguments: ["0", "-0", "1.5", "-1.5e3", "1e400", "2E-7", "10"])
  func numbersAsJSONWritesThemAreWellFormed(_ number: String) throws {
    #expect(try document(#"{"n":\#(number)}"#).fields["n"] == Data(number.utf8))
  }

  @Test(arguments: ["01", "1.", ".5", "1e", "--1", "1-2", "+1", "1e+"])
  func numbersJSONDoesNotAllowAreMalformed(_ number: String) {
    #expect(throws: StoredDocument.Malformed.self) { try document(#"{"n":\#(number)}"#) }
  }

  @Test func aConflictIsResolvedOnlyWhereAnotherWriterChangedThePropertySinceTheBase() throws {
    let stored = try document(#"{"same":1,"changed":5,"agreed":7}"#)
    let seen = ConflictLog()
    let patch: Patch = [
      "same": .set(Data("2".utf8), base: Data("1".utf8)),  // nobody else changed it: no conflict
      "changed": .set(Data("4".utf8), base: Data("3".utf8)),  // changed elsewhere from 3 to 5: a conflict
      "agreed": .set(Data("7".utf8), base: Data("6".utf8)),  // changed elsewhere to the same value: one too
    ]
    let patched = stored.applying(patch) { conflict in
      seen.add(conflict)
      return .stored
    }
    #expect(
      Set(seen.conflicts.map(\.key)) == ["changed", "agreed"]
        && seen.conflicts.contains(
          PropertyConflict(key: "changed", base: Data("3".utf8), mine: Data("4".utf8), stored: Data("5".utf8))))
    #expect(text(patched.serialized()) == #"{"agreed":7,"changed":5,"same":2}"#)
    #expect(text(stored.applying(patch).serialized()) == #"{"agreed":7,"changed":4,"same":2}"#)  // no resolver: mine
  }
}

final class ConflictLog: @unchecked Sendable {
  private let lock = NSLock()
  private var seen: [PropertyConflict] = []
  var conflicts: [PropertyConflict] { lock.withLock { seen } }
  func add(_ conflict: PropertyConflict) { lock.withLock { seen.append(conflict) } }
}
