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
    let patched = stored.applying([StoredDocument.wholeValueKey: .set(Data("[3]".utf8))])
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
      "a": .set(Data("10".utf8)), "b": .remove, "c": .setIfAbsent(Data("30".utf8)),
      "d": .setIfAbsent(Data("40".utf8)),
    ])
    #expect(text(patched.serialized()) == #"{"a":10,"c":3,"d":40}"#)
    #expect(patched.changedKeys(comparedTo: stored) == ["a", "b", "d"])
  }

  @Test func aNewerPatchReplacesAnOlderOneButDefaultsNeverReplaceAChange() {
    let older: Patch = ["a": .set(Data("1".utf8)), "b": .set(Data("2".utf8))]
    let newer: Patch = ["a": .setIfAbsent(Data("0".utf8)), "b": .remove, "c": .set(Data("3".utf8))]
    #expect(older.updated(with: newer) == ["a": .set(Data("1".utf8)), "b": .remove, "c": .set(Data("3".utf8))])
  }
}
