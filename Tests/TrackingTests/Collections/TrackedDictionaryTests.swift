import Foundation
import Testing
@_spi(Testing) import Tracking

@Suite("Tracked dictionaries")
struct TrackedDictionaryTests {
  @Test func aValueByKeyDependsOnThatKeyOnly() {
    let inbox = Inbox()
    inbox.scores = ["ana": 1, "bo": 2]
    let runs = RunCounts()
    let tokens = [
      observe { _ = inbox.scores["ana"]; runs.hit("ana") },
      observe { _ = inbox.scores["bo"]; runs.hit("bo") },
      observe { _ = inbox.scores.keys; runs.hit("keys") },
      observe { _ = inbox.scores.values; runs.hit("values") },
    ]
    runs.reset()
    inbox.scores["ana"]! += 1
    #expect(runs["ana"] == 1)
    #expect(runs["values"] == 1)
    #expect(runs.total == 2)
    inbox.scores["bo"] = 2  // equal: no one
    #expect(runs.total == 2)
    inbox.scores["cy"] = 3  // insertion: the structure
    #expect(runs["keys"] == 1)
    #expect(runs["values"] == 2)
    #expect(runs.total == 4)
    inbox.scores["ana"] = nil  // removal: the structure and ana
    #expect(runs["ana"] == 2)
    #expect(runs["keys"] == 2)
    #expect(runs["bo"] == 0)
    #expect(inbox.scores.keys == ["bo", "cy"])
    _ = tokens
  }

  @Test func updateAndRemoveReturnTheOldValue() {
    var scores: TrackedDictionary<String, Int> = ["ana": 1]
    #expect(scores.updateValue(5, forKey: "ana") == 1)
    #expect(scores.updateValue(7, forKey: "bo") == nil)
    #expect(scores.removeValue(forKey: "ana") == 5)
    #expect(scores.removeValue(forKey: "zed") == nil)
    scores.removeAll(where: { $0.value > 6 })
    #expect(scores.isEmpty)
  }

  @Test func keysKeepInsertionOrderAndEqualityIgnoresIt() {
    let a: TrackedDictionary = ["x": 1, "y": 2]
    let b: TrackedDictionary = ["y": 2, "x": 1]
    #expect(a.keys == ["x", "y"])
    #expect(b.keys == ["y", "x"])
    #expect(a == b)
    #expect(a.hashValue == b.hashValue)
    #expect(a != ["x": 1])
  }

  @Test func codingKeepsOrderAndRejectsDuplicates() throws {
    let scores: TrackedDictionary = ["b": 2, "a": 1]
    let data = try JSONEncoder().encode(scores)
    let decoded = try JSONDecoder().decode(TrackedDictionary<String, Int>.self, from: data)
    #expect(decoded.keys == ["b", "a"])
    #expect(decoded == scores)
    let duplicated = Data(#"["a", 1, "a", 2]"#.utf8)
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(TrackedDictionary<String, Int>.self, from: duplicated) }
    let dangling = Data(#"["a", 1, "b"]"#.utf8)
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(TrackedDictionary<String, Int>.self, from: dangling) }
  }

  @Test func checkingRejectsADuplicateKeyWithATypedError() {
    #expect(throws: DuplicateKeyError<String>(key: "a")) {
      _ = try TrackedDictionary(checking: [("a", 1), ("b", 2), ("a", 3)])
    }
  }
}

extension DuplicateKeyError: Equatable where Key: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.key == rhs.key }
}

extension DuplicateIDError: Equatable where ID: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.id == rhs.id }
}

@Suite("Tracked collections: bad input and conformances")
struct TrackedCollectionInputTests {
  @Test func checkingRejectsADuplicateIDWithATypedError() {
    #expect(throws: DuplicateIDError<Int>(id: 1)) {
      _ = try TrackedList(checking: [ListRow(id: 1, title: "a"), ListRow(id: 1, title: "b")])
    }
    #expect(throws: Never.self) { try TrackedList(checking: [ListRow(id: 1, title: "a")]) }
  }

  @Test func decodingADuplicateIDIsDataCorrupted() throws {
    let data = Data(#"[{"id": 1, "title": "a", "done": false}, {"id": 1, "title": "b", "done": true}]"#.utf8)
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(TrackedList<ListRow>.self, from: data) }
  }

  @Test func listsAreEquatableHashableAndCodable() throws {
    let list: TrackedList = [ListRow(id: 2, title: "b"), ListRow(id: 1, title: "a")]
    let decoded = try JSONDecoder().decode(TrackedList<ListRow>.self, from: JSONEncoder().encode(list))
    #expect(decoded == list)
    #expect(decoded.ids == [2, 1])
    #expect(Set([list, decoded]).count == 1)
    var other = list
    other[id: 1]?.done = true
    #expect(other != list)
    #expect("\(list)".hasPrefix("TrackedList(["))
  }

  @Test func aDuplicateAppendTraps() async {
    await #expect(processExitsWith: .failure) {
      var list: TrackedList = [ListRow(id: 1, title: "a")]
      list.append(ListRow(id: 1, title: "again"))
    }
  }

  @Test func anEditThatChangesTheIDTraps() async {
    await #expect(processExitsWith: .failure) {
      struct Renamable: Identifiable { var id: Int }
      var list: TrackedList = [Renamable(id: 1)]
      list[id: 1]?.id = 2
    }
  }

  @Test func settingAnElementUnderAnotherIDTraps() async {
    await #expect(processExitsWith: .failure) {
      var list: TrackedList = [ListRow(id: 1, title: "a")]
      list[id: 1] = ListRow(id: 2, title: "b")
    }
  }
}

@Suite("Tracked dictionaries in struct state")
struct TrackedDictionaryStateTests {
  @Test func aStoreNotifiesTheEditedKeyAndTheStructureReaders() {
    let store = StateStore(Scoreboard(scores: ["ana": 1, "bo": 2]))
    let box = UncheckedBox(store)
    let runs = RunCounts()
    let tokens = [
      observe { _ = box.value.scores["ana"]; runs.hit("ana") },
      observe { _ = box.value.scores["bo"]; runs.hit("bo") },
      observe { _ = box.value.scores.keys; runs.hit("keys") },
      observe { _ = box.value.title; runs.hit("title") },
    ]
    runs.reset()
    store.mutate { $0.scores["ana"]! += 1 }
    #expect(runs["ana"] == 1)
    #expect(runs.total == 1)
    store.mutate { $0.scores["bo"] = 2 }  // equal: no one
    #expect(runs.total == 1)
    store.mutate { $0.scores["cy"] = 3 }  // insertion: the structure
    #expect(runs["keys"] == 1)
    #expect(runs.total == 2)
    store.mutate { $0.scores["ana"] = nil }  // removal: the structure and ana
    #expect(runs["ana"] == 2)
    #expect(runs["keys"] == 2)
    #expect(runs["bo"] == 0)
    #expect(runs.total == 4)
    #expect(store.scores.keys == ["bo", "cy"])
    _ = tokens
  }

  /// A new dictionary (made with an initializer) replaces the old one: everyone who read
  /// through it hears it, even where the values are equal.
  @Test func assigningANewDictionaryNotifiesEveryoneWhoReadThroughIt() {
    let store = StateStore(Scoreboard(scores: ["ana": 1]))
    let box = UncheckedBox(store)
    let runs = RunCounts()
    let tokens = [
      observe { _ = box.value.scores["ana"]; runs.hit("ana") },
      observe { _ = box.value.title; runs.hit("title") },
    ]
    runs.reset()
    store.mutate { $0.scores = ["ana": 1] }
    #expect(runs["ana"] == 1)
    #expect(runs.total == 1)
    _ = tokens
  }

  /// A key read while absent is a dependency: inserting it, even through a mutation in
  /// place of the absent value, notifies the reader.
  @Test func aReaderOfAnAbsentKeyHearsItsInsertion() {
    let store = StateStore(Scoreboard())
    let box = UncheckedBox(store)
    let runs = RunCounts()
    let token = observe { _ = box.value.scores["dee"]; runs.hit("dee") }
    runs.reset()
    store.mutate { $0.scores["dee"] = 4 }
    #expect(runs["dee"] == 1)
    #expect(store.scores["dee"] == 4)
    store.mutate { scoreboard in
      func bump(_ value: inout Int?) { value = (value ?? 0) + 1 }
      bump(&scoreboard.scores["eve"])  // the absent key's slot, modified in place
    }
    #expect(store.scores["eve"] == 1)
    #expect(store.scores.index(forKey: "eve") == 1)
    #expect(store.scores[1].key == "eve")
    _ = token
  }

  /// A copy of the state taken out of one store and given to another is the second
  /// store's own: neither store's readers hear the other's mutations.
  @Test func twoStoresHoldingOneDictionaryNeverNotifyEachOther() {
    let first = StateStore(Scoreboard(scores: ["ana": 1]))
    let second = StateStore(first.state)
    let box = UncheckedBox(first)
    let runs = RunCounts()
    let token = observe { _ = box.value.scores["ana"]; runs.hit("first") }
    runs.reset()
    second.mutate { $0.scores["ana"] = 10 }
    #expect(runs.total == 0)
    #expect(first.scores["ana"] == 1)
    first.mutate { $0.scores["ana"] = 2 }
    #expect(runs["first"] == 1)
    first.mutate { $0.scores.removeAll() }
    #expect(first.scores.isEmpty)
    #expect(runs["first"] == 2)
    _ = token
  }
}
