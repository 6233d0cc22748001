import Foundation
import Testing
@_spi(Testing) import Tracking

@Suite("Tracked lists: per-element dependencies")
struct TrackedListTests {
  /// One observer per row reading its own row, one reading the IDs: the shape of a
  /// SwiftUI list whose rows read their element through the model.
  struct ListAndRows {
    let inbox: Inbox
    let runs = RunCounts()
    var tokens: [TrackingToken] = []

    init(rows: Int) {
      inbox = Inbox(rows: rows)
      let (inbox, runs) = (inbox, runs)
      tokens.append(observe { _ = inbox.rows.ids; runs.hit("list") })
      for id in 0..<rows {
        tokens.append(observe { _ = inbox.rows[id: id]?.title; runs.hit("row \(id)") })
      }
      runs.reset()
    }
  }

  // The scene (the benchmark `collection.edit.list` checks it too, in release).
  // Single-threaded: skipped under ThreadSanitizer, where the contention test below
  // runs the same paths on several threads.
  @Test(.disabled(if: isRunningUnderThreadSanitizer, "single-threaded; the contention test covers it"))
  func editingOneRowOfTenThousandReRunsThatRowOnly() {
    let scene = ListAndRows(rows: 10_000)
    scene.inbox.rows[id: 4_321]?.title = "edited"
    #expect(scene.runs.total == 1)
    #expect(scene.runs["row 4321"] == 1)
    scene.inbox.rows.mutate(id: 17) { $0.done = true }
    #expect(scene.runs.total == 2)
    #expect(scene.runs["row 17"] == 1)
  }

  @Test func appendingReRunsTheListAndNoRow() {
    let scene = ListAndRows(rows: 100)
    scene.inbox.rows.append(ListRow(id: 100, title: "new"))
    #expect(scene.runs["list"] == 1)
    #expect(scene.runs.total == 1)
  }

  @Test func removingReRunsTheListAndTheRemovedRowOnly() {
    let scene = ListAndRows(rows: 100)
    let removed = scene.inbox.rows.remove(id: 42)
    #expect(removed?.title == "row 42")
    #expect(scene.runs["list"] == 1)
    #expect(scene.runs["row 42"] == 1)
    #expect(scene.runs.total == 2)
    #expect(scene.inbox.rows.count == 99)
    #expect(scene.inbox.rows[id: 43]?.title == "row 43")
    #expect(scene.inbox.rows.index(id: 43) == 42)
  }

  @Test func movingAndSortingReRunTheListOnly() {
    let scene = ListAndRows(rows: 10)
    scene.inbox.rows.move(fromOffsets: [0, 1], toOffset: 5)
    #expect(scene.inbox.rows.ids == [2, 3, 4, 0, 1, 5, 6, 7, 8, 9])
    scene.inbox.rows.sort { $0.id < $1.id }
    #expect(scene.inbox.rows.ids == Array(0..<10))
    scene.inbox.rows.sort { $0.id < $1.id }  // already in order: nothing changes
    scene.inbox.rows.swapAt(0, 9)
    #expect(scene.inbox.rows.ids.first == 9)
    #expect(scene.runs["list"] == 3)
    #expect(scene.runs.total == 3)
  }

  @Test func settingAnEqualElementNotifiesNoOne() {
    let scene = ListAndRows(rows: 10)
    scene.inbox.rows[id: 3] = ListRow(id: 3, title: "row 3")
    scene.inbox.rows.updateOrAppend(ListRow(id: 4, title: "row 4"))
    #expect(scene.runs.total == 0)
    scene.inbox.rows[id: 3] = ListRow(id: 3, title: "three")
    #expect(scene.runs["row 3"] == 1)
    #expect(scene.runs.total == 1)
  }

  @Test func aReaderOfAnAbsentIDReRunsWhenItIsInserted() {
    let inbox = Inbox(rows: 2)
    let seen = Received<String>()
    let token = observe { seen.append(inbox.rows[id: 5]?.title ?? "none") }
    inbox.rows[id: 0]?.title = "zero"  // another row: not this reader's
    inbox.rows[id: 5] = ListRow(id: 5, title: "five")
    inbox.rows[id: 5] = nil
    #expect(seen.values == ["none", "five", "none"])
    _ = token
  }

  @Test func iteratingDependsOnTheStructureAndEachElementRead() {
    let inbox = Inbox(rows: 3)
    let runs = RunCounts()
    let token = observe { for row in inbox.rows where row.id < 2 { _ = row.title }; runs.hit("loop") }
    runs.reset()
    inbox.rows[id: 1]?.title = "read by the loop"
    inbox.rows[id: 2]?.title = "also read: iteration reads every element"
    inbox.rows.append(ListRow(id: 3, title: "structure"))
    #expect(runs["loop"] == 3)
    _ = token
  }

  @Test func elementsDependsOnEveryElementAsOneDependency() {
    let inbox = Inbox(rows: 50)
    let seen = Received<Int>()
    let token = observe { seen.append(inbox.rows.elements.filter(\.done).count) }
    inbox.rows.mutate(id: 7) { $0.done = true }
    inbox.rows[id: 8]?.done = true
    inbox.name = "unrelated"
    #expect(seen.values == [0, 1, 2])
    _ = token
  }

  @Test func anEditOfAnAbsentIDChangesNothing() {
    let scene = ListAndRows(rows: 3)
    scene.inbox.rows[id: 99]?.title = "nobody"
    let result = scene.inbox.rows.mutate(id: 99) { $0.title = "nobody"; return 1 }
    #expect(result == nil)
    #expect(scene.inbox.rows.count == 3)
    #expect(scene.runs.total == 0)
  }

  @Test func aTransactionReRunsEachReaderOnce() {
    let scene = ListAndRows(rows: 10)
    withTransaction {
      scene.inbox.rows[id: 1]?.title = "a"
      scene.inbox.rows[id: 1]?.title = "b"
      scene.inbox.rows[id: 2]?.title = "c"
      scene.inbox.rows.append(ListRow(id: 10, title: "d"))
    }
    #expect(scene.runs["row 1"] == 1)
    #expect(scene.runs["row 2"] == 1)
    #expect(scene.runs["list"] == 1)
    #expect(scene.runs.total == 3)
  }

  @Test func theClassPropertysOwnReadersHearOnlyReplacements() {
    let inbox = Inbox(rows: 3)
    let runs = RunCounts()
    // Reads the property and no element: only a new list re-runs it.
    let token = observe { _ = inbox.rows; runs.hit("property") }
    runs.reset()
    inbox.rows[id: 0]?.title = "in place"
    inbox.rows.append(ListRow(id: 3, title: "in place"))
    #expect(runs["property"] == 0)
    inbox.rows = TrackedList(uniqueElements: [ListRow(id: 9, title: "new list")])
    #expect(runs["property"] == 1)
    _ = token
  }

  @Test func assigningAWholeListReRunsEveryoneWhoReadThroughIt() {
    let scene = ListAndRows(rows: 5)
    var copy = scene.inbox.rows
    copy[id: 2]?.title = "edited in a copy"
    scene.inbox.rows = copy
    #expect(scene.runs.total == 6)
    #expect(scene.inbox.rows[id: 2]?.title == "edited in a copy")
  }

  @Test func swappingThePropertyInPlaceReRunsEveryone() {
    let scene = ListAndRows(rows: 3)
    var other = TrackedList(uniqueElements: [ListRow(id: 0, title: "other")])
    swap(&scene.inbox.rows, &other)
    #expect(scene.runs.total == 4)
    #expect(scene.inbox.rows.ids == [0])
  }
}

@Suite("Tracked lists: value semantics")
struct TrackedListCopyTests {
  @Test func mutatingACopyNotifiesNoOneAndLeavesTheOriginal() {
    let inbox = Inbox(rows: 3)
    let runs = RunCounts()
    let token = observe { _ = inbox.rows[id: 1]?.title; _ = inbox.rows.ids; runs.hit("reader") }
    runs.reset()
    var copy = inbox.rows
    copy[id: 1]?.title = "copy"
    copy.append(ListRow(id: 3, title: "copy"))
    _ = copy.remove(id: 0)
    #expect(runs.total == 0)
    #expect(inbox.rows[id: 1]?.title == "row 1")
    #expect(inbox.rows.ids == [0, 1, 2])
    #expect(copy.ids == [1, 2, 3])
    _ = token
  }

  @Test func anEditWhileACopyIsAliveStillReachesTheRowsReaders() {
    let inbox = Inbox(rows: 3)
    let seen = Received<String>()
    let token = observe { seen.append(inbox.rows[id: 1]?.title ?? "-") }
    let snapshot = inbox.rows
    inbox.rows[id: 1]?.title = "edited"
    #expect(seen.values == ["row 1", "edited"])
    #expect(snapshot[id: 1]?.title == "row 1")
    _ = token
  }

  @Test func aLocalListNotifiesNoOne() {
    var list: TrackedList<ListRow> = [ListRow(id: 1, title: "one")]
    let runs = RunCounts()
    let captured = list
    let token = observe { _ = captured[id: 1]; runs.hit("reader") }
    runs.reset()
    list[id: 1]?.title = "changed"
    list.append(ListRow(id: 2, title: "two"))
    #expect(runs.total == 0)
    #expect(captured[id: 1]?.title == "one")
    _ = token
  }
}

@Suite("Tracked lists: events, derived values, sequences")
struct TrackedListIntegrationTests {
  @Test func eventsSayWhichElementChangedWithItsValues() {
    let inbox = Inbox(rows: 3)
    let seen = Received<String>()
    let keyPath = \TrackedList<ListRow>[id: 2]
    withTracking(options: [.willSet, .didSet]) {
      _ = inbox.rows[id: 2]
    } onChange: { event in
      let title = event.value(of: keyPath)??.title ?? "?"
      seen.append("\(event.kind) \(event.matches(keyPath)) \(event.matches(\TrackedList<ListRow>[id: 1])) \(title)")
    }
    inbox.rows[id: 2]?.title = "two"
    #expect(seen.values == ["willSet true false row 2", "didSet true false two"])
  }

  @Test func aDerivedValueOverOneRowRecomputesForThatRowOnly() {
    let inbox = Inbox(rows: 100)
    let computed = RunCounts()
    let title = Derived { computed.hit("title"); return inbox.rows[id: 10]?.title ?? "" }
    let token = observe { _ = title.value }
    #expect(computed["title"] == 1)
    inbox.rows[id: 11]?.title = "not this one"
    inbox.rows.append(ListRow(id: 100, title: "nor this"))
    #expect(computed["title"] == 1)
    inbox.rows[id: 10]?.title = "this one"
    #expect(computed["title"] == 2)
    #expect(title.value == "this one")
    _ = token
  }

  @Test func wholeValueObserversHearAnInPlaceEdit() {
    let inbox = Inbox(rows: 3)
    let runs = RunCounts()
    let seen = Received<[String]>()
    let tokens = [
      observe { inbox.trackEveryProperty(); runs.hit("every property") },
      inbox.onChange(of: \.rows) { _, new in seen.append(new.elements.map(\.title)) },
    ]
    runs.reset()
    inbox.rows[id: 1]?.title = "edited"
    #expect(runs["every property"] == 1)
    #expect(seen.values == [["row 0", "edited", "row 2"]])
    _ = tokens
  }

  @Test func aSequenceOfOneRowYieldsItsChanges() async {
    let inbox = Inbox(rows: 3)
    var titles = TrackedValues { inbox.rows[id: 1]?.title ?? "" }.makeAsyncIterator()
    #expect(await titles.next() == "row 1")
    inbox.rows[id: 0]?.title = "another row"
    inbox.rows[id: 1]?.title = "one"
    #expect(await titles.next() == "one")
  }
}

@Suite("Tracked lists in struct state")
struct TrackedListStateTests {
  @Test func aStoreNotifiesTheEditedRowAndTheStructureReaders() {
    let store = StateStore(Board(cards: [ListRow(id: 1, title: "a"), ListRow(id: 2, title: "b")]))
    let box = UncheckedBox(store)
    let runs = RunCounts()
    let tokens = [
      observe { _ = box.value.cards[id: 1]?.title; runs.hit("card 1") },
      observe { _ = box.value.cards[id: 2]?.title; runs.hit("card 2") },
      observe { _ = box.value.cards.ids; runs.hit("ids") },
      observe { _ = box.value.title; runs.hit("title") },
    ]
    runs.reset()
    store.mutate { $0.cards[id: 1]?.title = "edited" }
    #expect(runs["card 1"] == 1)
    #expect(runs.total == 1)
    store.mutate { $0.cards.append(ListRow(id: 3, title: "c")) }
    #expect(runs["ids"] == 1)
    #expect(runs.total == 2)
    store.mutate { _ = $0.cards.remove(id: 2) }
    #expect(runs["ids"] == 2)
    #expect(runs["card 2"] == 1)
    #expect(runs.total == 4)
    store.mutate { $0.cards[id: 1] = ListRow(id: 1, title: "edited") }  // equal: no one
    #expect(runs.total == 4)
    _ = tokens
  }

  @Test func aListIsAStoresStateOnItsOwn() {
    let store = StateStore(TrackedList(uniqueElements: [ListRow(id: 1, title: "a"), ListRow(id: 2, title: "b")]))
    let box = UncheckedBox(store)
    let runs = RunCounts()
    let tokens = [
      observe { _ = box.value.state[id: 1]; runs.hit("1") },
      observe { _ = box.value.state.count; runs.hit("count") },
    ]
    runs.reset()
    store.mutate { $0[id: 2]?.done = true }
    #expect(runs.total == 0)
    store.mutate { $0[id: 1]?.done = true }
    #expect(runs["1"] == 1)
    store.mutate { $0.append(ListRow(id: 3, title: "c")) }
    #expect(runs["count"] == 1)
    #expect(runs.total == 2)
    _ = tokens
  }

  @Test func twoStoresHoldingOneListNeverNotifyEachOther() {
    let list = TrackedList(uniqueElements: [ListRow(id: 1, title: "a")])
    let first = StateStore(list)
    let second = StateStore(list)
    let box = UncheckedBox(first)
    let runs = RunCounts()
    let token = observe { _ = box.value.state[id: 1]; runs.hit("first") }
    runs.reset()
    second.mutate { $0[id: 1]?.title = "second's" }
    #expect(runs.total == 0)
    first.mutate { $0[id: 1]?.title = "first's" }
    #expect(runs["first"] == 1)
    _ = token
  }
}
