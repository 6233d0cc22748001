import Testing
@_spi(Testing) import Tracking

/// A copy of a tracked state value is independent: mutating it notifies no reader of
/// the store it came from, nor of any other copy. Only a change to the value a store
/// holds, made through that store, notifies: exactly the readers of what changed.
///
/// Every test installs one-shot readers of several paths of a store, mutates a copy in
/// one of the ways a copy can be made, checks that no reader fired, then mutates the
/// store and checks that the right readers fire (they were not spent on the copy).
@Suite("Copies of struct state")
struct StateCopyTests {
  func store() -> StateStore<Feature> {
    var feature = Feature()
    feature.items = [Item(id: 1), Item(id: 2)]
    feature.optionalChild = Child()
    feature.destination = .detail(Child())
    return StateStore(feature)
  }

  /// One-shot readers of the paths the tests mutate; their names, as they fire.
  func watch(_ store: StateStore<Feature>) -> Events {
    let events = Events()
    withTracking { _ = store.count } onChange: { events("count") }
    withTracking { _ = store.child.value } onChange: { events("child.value") }
    withTracking { _ = store.child.name } onChange: { events("child.name") }
    withTracking { _ = store.items.first?.done } onChange: { events("items.first.done") }
    withTracking { _ = store.optionalChild?.value } onChange: { events("optionalChild.value") }
    withTracking {
      if case .detail(let child) = store.destination { _ = child.value }
    } onChange: {
      events("destination.detail.value")
    }
    return events
  }

  // MARK: Ways to make a copy

  /// The program: two readers, a copy mutated, then the store mutated.
  @Test func aCopyTakenOutOfTheStoreIsIndependent() {
    let store = store()
    let events = watch(store)
    var copy = store.state
    copy.count = 5
    copy.child.value = 9
    #expect(events.all.isEmpty)
    store.mutate { $0.child.value = 1 }
    #expect(events.all == ["child.value"])
    #expect(store.count == 0 && store.child.value == 1)
    #expect(copy.count == 5 && copy.child.value == 9)
  }

  @Test func aCopyPassedToAFunctionIsIndependent() {
    func edited(_ feature: Feature) -> Feature {
      var feature = feature
      feature.count += 1
      feature.child.value += 1
      feature.items[0].done = true
      feature.optionalChild?.value = 3
      return feature
    }
    func edit(_ feature: inout Feature) {
      feature.child.name = "edited"
    }
    let store = store()
    let events = watch(store)
    var copy = edited(store.state)
    edit(&copy)
    #expect(events.all.isEmpty)
    #expect(copy.count == 1 && copy.child.name == "edited" && store.child.name == "child")
    store.mutate { $0.count = 2 }
    #expect(events.all == ["count"])
  }

  @Test func aCopyCapturedInAClosureIsIndependent() {
    let store = store()
    let events = watch(store)
    var captured = store.state
    let edit = {
      captured.count = 7
      captured.child.value = 7
    }
    edit()
    #expect(events.all.isEmpty)
    #expect(captured.count == 7)
    store.mutate { $0.child.value = 2 }
    #expect(events.all == ["child.value"])
  }

  @Test func copiesKeptInAnArrayAreIndependent() {
    let store = store()
    let events = watch(store)
    var snapshots = [store.state, store.state]
    snapshots[0].count = 1
    snapshots[1].child.value = 2
    snapshots[1].items[0].done = true
    #expect(events.all.isEmpty)
    #expect(snapshots.map(\.count) == [1, 0])
    store.mutate { $0.items[0].done = true }
    #expect(events.all == ["items.first.done"])
  }

  @Test func aCopyOfAnArrayElementIsIndependent() {
    let store = store()
    let events = watch(store)
    var item = store.items[0]
    item.done = true
    var items = store.items
    items[0].done = true
    items.append(Item(id: 3))
    #expect(events.all.isEmpty)
    #expect(store.items.map(\.done) == [false, false])
    store.mutate { $0.items[0].done = true }
    #expect(events.all == ["items.first.done"])
  }

  @Test func aCopyOfAnOptionalChildIsIndependent() {
    let store = store()
    let events = watch(store)
    var optional = store.optionalChild
    optional?.value = 4
    var unwrapped = store.optionalChild!
    unwrapped.value = 5
    #expect(events.all.isEmpty)
    store.mutate { $0.optionalChild?.value = 6 }
    #expect(events.all == ["optionalChild.value"])
    #expect(store.optionalChild?.value == 6)
  }

  @Test func aCopyOfAnEnumPayloadIsIndependent() {
    let store = store()
    let events = watch(store)
    if case .detail(var child) = store.destination {
      child.value = 5
    }
    var destination = store.destination
    if case .detail(var child)? = destination {
      child.value = 6
      destination = .detail(child)
    }
    #expect(events.all.isEmpty)
    // Written back: the same payload, mutated, notifies the readers of its field.
    store.destination = destination
    #expect(events.all == ["destination.detail.value"])
  }

  @Test func aCopyMadeInsideMutateAndNotStoredBackIsIndependent() {
    let store = store()
    let events = watch(store)
    store.mutate { state in
      var child = state.child
      child.value = 9
      var whole = state
      whole.count = 3
      #expect(child.value == 9 && whole.count == 3)
    }
    #expect(events.all.isEmpty)
    #expect(store.child.value == 0 && store.count == 0)
  }

  @Test func mutatingOneCopyDoesNotNotifyTheReadersOfAnother() {
    let store = store()
    let first = store.state
    let events = Events()
    withTracking { _ = first.child.value } onChange: { events("first.child.value") }
    var second = store.state
    second.child.value = 3
    #expect(events.all.isEmpty)
  }

  // MARK: Writing copies back

  @Test func writingACopyBackNotifiesTheFieldsInWhichItDiffersOnce() {
    let store = store()
    let events = watch(store)
    var child = store.child
    child.value = 9
    child.value = 10
    #expect(events.all.isEmpty)
    store.mutate { $0.child = child }
    #expect(events.all == ["child.value"])
    #expect(store.child.value == 10)
  }

  @Test func aStaleCopyWrittenBackNotifiesTheFieldsItReverts() {
    let store = store()
    let stale = store.state
    store.count = 5
    store.mutate { $0.child.name = "new" }
    let events = watch(store)
    store.mutate { $0 = stale }
    #expect(events.all.sorted() == ["child.name", "count"])
    #expect(store.count == 0 && store.child.name == "child")
  }

  // MARK: Other stores

  @Test func aStoreMadeFromAnotherStoresValueSharesNoReaders() {
    let store = store()
    let draft = StateStore(store.state)
    let events = watch(store)
    let draftEvents = watch(draft)
    draft.mutate { $0.child.value = 1 }
    draft.mutate { $0.items[0].done = true }
    #expect(events.all.isEmpty)
    #expect(draftEvents.all == ["child.value", "items.first.done"])
    store.mutate { $0.child.value = 2 }
    #expect(events.all == ["child.value"])
    #expect(draftEvents.all == ["child.value", "items.first.done"])
    #expect(store.child.value == 2 && draft.child.value == 1)
  }

  @Test func aValueHandedToAnotherStoreSharesNoReaders() {
    let store = store()
    let other = StateStore(Feature())
    let events = watch(store)
    other.mutate { $0.child = store.child }
    other.mutate { $0.optionalChild = store.optionalChild }
    other.mutate { $0.items = store.items }
    other.mutate { state in
      state.child.value = 5
      state.optionalChild?.value = 5
      state.items[0].done = true
    }
    #expect(events.all.isEmpty)
    // The copy is a new value in `other`: its readers are notified when it changes.
    let otherEvents = watch(other)
    other.mutate { $0.child.value = 6 }
    #expect(otherEvents.all == ["child.value"])
    #expect(events.all.isEmpty)
  }

  @Test func aValueMovedBetweenStoresBecomesANewValue() {
    let store = store()
    let other = StateStore(Feature())
    let events = Events()
    withTracking { _ = store.child } onChange: { events("child") }
    withTracking { _ = store.child.value } onChange: { events("child.value") }
    other.mutate { $0.child = store.child }
    store.mutate { $0.child = other.child }  // back, with a new identity
    #expect(events.all.sorted() == ["child", "child.value"])
  }

  /// An enum payload handed to another store gets a new identity there too (rebuilt
  /// with its labels).
  @Test func anEnumPayloadInAnotherStoreSharesNoReaders() {
    let first = StateStore(Screen(route: .edit(child: Child(), "note")))
    let second = StateStore(first.state)
    func watch(_ store: StateStore<Screen>) -> Events {
      let events = Events()
      withTracking {
        if case .edit(let child, _) = store.route { _ = child.value }
      } onChange: {
        events("route.edit.value")
      }
      return events
    }
    let firstEvents = watch(first)
    let secondEvents = watch(second)
    second.mutate { state in
      if case .edit(var child, let note) = state.route {
        child.value = 3
        state.route = .edit(child: child, note)
      }
    }
    #expect(firstEvents.all.isEmpty)
    #expect(secondEvents.all == ["route.edit.value"])
  }
}
