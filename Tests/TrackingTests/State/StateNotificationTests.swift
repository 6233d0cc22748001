import Testing
@_spi(Testing) import Tracking

/// Which readers each kind of struct-state mutation notifies, and which it does not.
/// Every test installs readers of several paths, makes one mutation, and checks the
/// exact set of readers that fired.
@Suite("Struct state notifications")
struct StateNotificationTests {
  /// Installs one tracking per named read on `store`; returns the names that fired.
  func fired(
    _ store: StateStore<Feature>,
    reading reads: [String: (StateStore<Feature>) -> Void],
    after mutation: () -> Void
  ) -> Set<String> {
    let events = Events()
    for (name, read) in reads {
      withTracking { read(store) } onChange: { events(name) }
    }
    mutation()
    return Set(events.all)
  }

  let readers: [String: (StateStore<Feature>) -> Void] = [
    "count": { _ = $0.count },
    "title": { _ = $0.title },
    "child": { _ = $0.child },
    "child.value": { _ = $0.child.value },
    "child.name": { _ = $0.child.name },
    "optionalChild": { _ = $0.optionalChild },
    "optionalChild.value": { _ = $0.optionalChild?.value },
    "items": { _ = $0.items },
    "items.first.done": { _ = $0.items.first?.done },
    "items.last.done": { _ = $0.items.last?.done },
    "destination": { _ = $0.destination },
  ]

  func store() -> StateStore<Feature> {
    var feature = Feature()
    feature.items = [Item(id: 1), Item(id: 2)]
    return StateStore(feature)
  }

  @Test func settingAFieldNotifiesOnlyItsReaders() {
    let store = store()
    #expect(fired(store, reading: readers) { store.count = 1 } == ["count"])
    #expect(store.count == 1)
  }

  @Test func settingAFieldToAnEqualValueNotifiesNoOne() {
    let store = store()
    #expect(fired(store, reading: readers) { store.title = "Feature" }.isEmpty)
  }

  @Test func settingANestedFieldNotifiesOnlyItsReaders() {
    let store = store()
    #expect(fired(store, reading: readers) { store.mutate { $0.child.value += 1 } } == ["child.value"])
    #expect(store.child.value == 1)
  }

  @Test func replacingANestedValueWithANewIdentityNotifiesEveryoneReadingThroughIt() {
    let store = store()
    let fired = fired(store, reading: readers) { store.mutate { $0.child = Child() } }
    #expect(fired == ["child", "child.value", "child.name"])
  }

  @Test func writingBackAMutatedCopyNotifiesTheChangedFieldOnlyOnce() {
    let store = store()
    let events = Events()
    for (name, read) in readers {
      withTracking { read(store) } onChange: { events(name) }
    }
    var copy = store.child
    copy.name = "renamed"  // a copy: notifies no one
    #expect(events.all.isEmpty)
    store.mutate { $0.child = copy }  // same identity: only the changed field notifies
    #expect(events.all == ["child.name"])
    #expect(store.child.name == "renamed")
  }

  @Test func optionalNilToSomeAndBackNotifiesItsReaders() {
    let store = store()
    #expect(
      fired(store, reading: readers) { store.optionalChild = Child() } == ["optionalChild", "optionalChild.value"])
    #expect(
      fired(store, reading: readers) { store.optionalChild = nil } == ["optionalChild", "optionalChild.value"])
  }

  @Test func mutatingThroughAnOptionalNotifiesOnlyTheField() {
    let store = store()
    store.optionalChild = Child()
    #expect(fired(store, reading: readers) { store.mutate { $0.optionalChild?.value = 7 } } == ["optionalChild.value"])
    #expect(store.optionalChild?.value == 7)
  }

  @Test func appendingAndRemovingNotifiesReadersOfTheArray() {
    let store = store()
    let appended = fired(store, reading: readers) { store.mutate { $0.items.append(Item(id: 3)) } }
    #expect(appended == ["items", "items.first.done", "items.last.done"])
    let removed = fired(store, reading: readers) { store.mutate { _ = $0.items.removeFirst() } }
    #expect(removed == ["items", "items.first.done", "items.last.done"])
    #expect(store.items.map(\.id) == [2, 3])
  }

  @Test func mutatingAnElementFieldNotifiesOnlyReadersOfThatElementsField() {
    let store = store()
    let fired = fired(store, reading: readers) { store.mutate { $0.items[1].done = true } }
    #expect(fired == ["items.last.done"])
    #expect(store.items.map(\.done) == [false, true])
  }

  @Test func mutatingAnElementFoundByIDNotifiesOnlyThatElement() {
    let store = store()
    let fired = fired(store, reading: readers) {
      store.mutate { state in
        if let index = state.items.firstIndex(where: { $0.id == 1 }) { state.items[index].done = true }
      }
    }
    #expect(fired == ["items.first.done"])
  }

  @Test func replacingAnElementWithANewValueOfTheSameIDNotifiesReadersOfTheArray() {
    let store = store()
    let fired = fired(store, reading: readers) { store.mutate { $0.items[0] = Item(id: 1, done: true) } }
    #expect(fired == ["items", "items.first.done", "items.last.done"])
  }

  @Test func changingAnEnumCaseNotifiesItsReaders() {
    let store = store()
    let child = Child()
    store.destination = .detail(child)
    #expect(fired(store, reading: readers) { store.destination = .settings(child) } == ["destination"])
    #expect(fired(store, reading: readers) { store.destination = .empty } == ["destination"])
    #expect(fired(store, reading: readers) { store.destination = .empty }.isEmpty)
  }

  @Test func changingAnEnumPayloadFieldNotifiesOnlyItsReaders() {
    let store = store()
    store.destination = .detail(Child())
    let events = Events()
    withTracking { _ = store.destination } onChange: { events("destination") }
    withTracking {
      if case .detail(let child) = store.destination { _ = child.value }
    } onChange: {
      events("destination.detail.value")
    }
    withTracking {
      if case .detail(let child) = store.destination { _ = child.name }
    } onChange: {
      events("destination.detail.name")
    }
    if case .detail(var child) = store.destination {
      child.value = 5
      store.destination = .detail(child)
    }
    #expect(events.all == ["destination.detail.value"])
    guard case .detail(let child) = store.destination else {
      Issue.record("destination changed case")
      return
    }
    #expect(child.value == 5)
  }

  @Test func replacingAnEnumPayloadWithANewValueNotifiesReadersOfTheEnum() {
    let store = store()
    store.destination = .detail(Child())
    #expect(fired(store, reading: readers) { store.destination = .detail(Child()) } == ["destination"])
  }

  @Test func replacingTheRootWithANewValueNotifiesEveryReader() {
    let store = store()
    let fired = fired(store, reading: readers) { store.mutate { $0 = Feature() } }
    #expect(fired == Set(readers.keys))
  }

  /// The store records a read of its root on the root value itself, with the member
  /// read through it: a reader of `state` alone still hears a new root, and only that.
  @Test func aReaderOfTheWholeStateHearsANewRootButNotAFieldChange() {
    let store = store()
    let fired = Events()
    withTracking { _ = store.state } onChange: { fired("state") }
    store.mutate { $0.count = 7 }
    #expect(fired.all.isEmpty)
    store.mutate { $0 = Feature() }
    #expect(fired.all == ["state"])
    store.mutate { $0 = Feature() }  // a one-shot tracking: fired once
    #expect(fired.all == ["state"])
  }

  /// A read of the new root after a replacement is recorded on the new root.
  @Test func aReaderOfTheNewRootHearsTheNextReplacement() {
    let store = store()
    store.mutate { $0 = Feature() }
    let fired = Events()
    withTracking { _ = store.count } onChange: { fired("count") }
    store.mutate { $0 = Feature() }
    #expect(fired.all == ["count"])
  }

  @Test func settingTheRootToAMutatedCopyOfItselfNotifiesOnlyChangedFields() {
    let store = store()
    var copy = store.state
    let fired = fired(store, reading: readers) {
      copy.count = 3
      store.mutate { $0 = copy }
    }
    #expect(fired == ["count"])
    #expect(store.count == 3)
  }
}
