import Testing
@_spi(Testing) import Tracking

/// Neither `Equatable` nor an object, with padding between its fields (so two equal
/// copies may differ in their bits).
struct Incomparable {
  var flag = false
  var number = 0
}

/// Counts the comparisons a store makes of ``Row`` values.
final class ComparisonCounter: @unchecked Sendable {
  // @unchecked Sendable: only touched by the test that owns it, on its thread.
  var count = 0
}

/// A hand-written state value, replaced when its `id` changes, that counts how often a
/// store compares it with an earlier version.
struct Row: StateIdentifiable {
  let id: Int
  var label = ""
  let counter: ComparisonCounter

  func _$reportChanges(from old: Row, into changes: inout StateChanges) -> Bool {
    counter.count += 1
    return id != old.id || label != old.label
  }
}

@TrackedState
struct Panel {
  var options = Incomparable()
  var other = Incomparable()
  var level = 0
  var onTap: @Sendable () -> Void = {}
  var rows: [Row] = []
}

@TrackedState
struct Links {
  unowned var owner: Friend
  var count = 0
}

@TrackedState
struct Loadable<Value> {
  var value: Value
  var isLoading = false
}

/// How a store compares fields whose types it cannot compare, and what it skips.
@Suite("Struct state comparisons")
struct StateComparisonTests {
  func watch(_ store: StateStore<Panel>) -> Events {
    let events = Events()
    withTracking { _ = store.options } onChange: { events("options") }
    withTracking { _ = store.other } onChange: { events("other") }
    withTracking { _ = store.level } onChange: { events("level") }
    withTracking { _ = store.onTap } onChange: { events("onTap") }
    return events
  }

  @Test func aWrittenIncomparableFieldNotifiesItsReadersOnly() {
    let store = StateStore(Panel())
    let events = watch(store)
    store.mutate { $0.options.number = 1 }
    #expect(events.all == ["options"])
    store.mutate { $0.onTap = {} }
    #expect(events.all == ["options", "onTap"])
  }

  @Test func anUntouchedIncomparableFieldNeverNotifies() {
    let store = StateStore(Panel())
    store.mutate { $0.options.number = 1 }  // written once: it has a stamp now
    let events = watch(store)
    for level in 1...20 { store.mutate { $0.level = level } }
    #expect(events.all == ["level"])
  }

  @Test func anIncomparableFieldWrittenOnAStaleCopyNotifiesWhenTheCopyIsWrittenBack() {
    let store = StateStore(Panel())
    var stale = store.state
    store.mutate { $0.options.number = 1 }
    stale.other.flag = true
    let events = watch(store)
    store.mutate { $0 = stale }
    #expect(events.all.sorted() == ["options", "other"])
    #expect(store.options.number == 0 && store.other.flag)
  }

  @Test func aCopyWithAWrittenIncomparableFieldNotifiesNoOne() {
    let store = StateStore(Panel())
    let events = watch(store)
    var copy = store.state
    copy.options.flag = true
    copy.onTap = {}
    #expect(events.all.isEmpty)
    store.mutate { $0.level = 1 }
    #expect(events.all == ["level"])
  }

  /// An array the mutation did not touch shares its buffer with the old state: the
  /// store skips it without looking at a single element.
  @Test func anUntouchedArrayIsSkippedWithoutComparingElements() {
    let counter = ComparisonCounter()
    var panel = Panel()
    panel.rows = (0..<1_000).map { Row(id: $0, counter: counter) }
    let store = StateStore(panel)
    store.mutate { $0.level = 1 }
    #expect(counter.count == 0)
  }

  /// In an array the mutation touched, only the elements whose bits changed are
  /// compared; an element that changed inside, keeping its identity, notifies the
  /// array's readers (a hand-written value is compared as a whole).
  @Test func aTouchedArrayComparesOnlyTheElementsThatChanged() {
    let counter = ComparisonCounter()
    var panel = Panel()
    panel.rows = (0..<1_000).map { Row(id: $0, counter: counter) }
    let store = StateStore(panel)
    let events = Events()
    withTracking { _ = store.rows } onChange: { events("rows") }
    withTracking { _ = store.level } onChange: { events("level") }
    store.mutate { $0.rows[500].label = "changed" }
    #expect(counter.count == 1)
    #expect(events.all == ["rows"])
  }

  /// An `unowned` field is compared by its writes and never loaded: its object may be
  /// gone while the store compares the other fields.
  @Test func anUnownedFieldIsComparedByItsWritesAndNeverLoaded() {
    let log = EventLog()
    var first: Friend? = Friend("first", log: log)
    let store = StateStore(Links(owner: first!))
    let events = Events()
    withTracking { _ = store.count } onChange: { events("count") }
    first = nil
    #expect(log.events == ["deinit first"])
    store.mutate { $0.count = 1 }  // compares every field; `owner`'s object is gone
    #expect(events.all == ["count"])
    let second = Friend("second")
    // Through `mutate`, the setter runs alone; a key-path write (`store.owner = …`)
    // would first load the old value, as any computed property's key-path write does.
    store.mutate { $0.owner = second }
    withTracking { _ = store.owner } onChange: { events("owner") }
    let third = Friend("third")
    store.owner = third
    #expect(events.all == ["count", "owner"])
    #expect(store.owner === third)
    withExtendedLifetime(second) {}
  }

  /// A field of a generic type is compared as an incomparable one.
  @Test func aGenericFieldNotifiesWhenWritten() {
    let store = StateStore(Loadable(value: 1))
    let events = Events()
    withTracking { _ = store.value } onChange: { events("value") }
    withTracking { _ = store.isLoading } onChange: { events("isLoading") }
    store.mutate { $0.isLoading = true }
    #expect(events.all == ["isLoading"])
    store.mutate { $0.value = 2 }
    #expect(events.all == ["isLoading", "value"])
  }
}
