import Foundation
import Testing
@_spi(Testing) import Tracking

/// Identity, value semantics and the store's surface.
@Suite("Struct state values")
struct StateBehaviourTests {
  @Test func newValuesHaveNewIdentitiesCopiesAndMutationsKeepIt() {
    var a = Child()
    let copy = a
    a.value = 3
    #expect(a._$stateRegistrar.isSame(as: copy._$stateRegistrar))
    #expect(!a._$stateRegistrar.isSame(as: Child()._$stateRegistrar))
    #expect(copy.value == 0)  // still a value type
  }

  @Test func theMemberwiseInitializerKeepsWorking() {
    let item = Item(id: 4, done: true)
    #expect(item.id == 4 && item.done)
    let child = Child(value: 2, name: "x")
    #expect(child.value == 2 && child.name == "x")
  }

  @Test func equalityAndCodingIgnoreTheRegistrar() throws {
    let a = Saved(name: "a", count: 1)
    let b = Saved(name: "a", count: 1)
    #expect(a == b)
    #expect(!a._$stateRegistrar.isSame(as: b._$stateRegistrar))
    let data = try JSONEncoder().encode(a)
    #expect(String(decoding: data, as: UTF8.self).contains("\"name\":\"a\""))
    let decoded = try JSONDecoder().decode(Saved.self, from: data)
    #expect(decoded == a)
    #expect(!decoded._$stateRegistrar.isSame(as: a._$stateRegistrar))
  }

  @Test func writableMembersOfTheStoreSetTopLevelAndNestedFields() {
    let store = StateStore(Feature())
    let events = Events()
    withTracking { _ = store.child.value } onChange: { events("child.value") }
    withTracking { _ = store.child.name } onChange: { events("child.name") }
    withTracking { _ = store.count } onChange: { events("count") }
    store.child.value = 3
    #expect(events.all == ["child.value"])
    store.count = 2
    #expect(events.all == ["child.value", "count"])
    #expect(store.child.value == 3 && store.count == 2)
  }

  @Test func mutateReturnsAndRethrowsAndStoresPartialChangesOnThrow() {
    struct Failure: Error {}
    let store = StateStore(Feature())
    #expect(store.mutate { $0.count += 1; return $0.count } == 1)
    #expect(throws: Failure.self) {
      try store.mutate { state in
        state.title = "partial"
        throw Failure()
      }
    }
    #expect(store.title == "partial")
  }

  @Test func readsOutsideTrackingInstallNothing() {
    let store = StateStore(Feature())
    _ = store.child.value
    #expect(store.state.child._$stateRegistrar.installedObserverCount == 0)
    withTracking { _ = store.child.value } onChange: {}
    #expect(store.state.child._$stateRegistrar.installedObserverCount == 1)
  }

  @Test func anOnChangeFiresOnceAndSeesTheOldValueForPlainFields() {
    let store = StateStore(Feature())
    let events = Events()
    let box = UncheckedBox(store)
    withTracking { _ = store.child.value } onChange: { events("old \(box.value.child.value)") }
    store.mutate { $0.child.value = 1 }
    store.mutate { $0.child.value = 2 }
    #expect(events.all == ["old 0"])
  }

  @Test func aDidChangeCallbackReadsTheNewStateAndWillChangeTheOld() {
    let store = StateStore(Feature())
    let events = Events()
    let box = UncheckedBox(store)
    withTracking { _ = store.child.value } willSet: { _ in events("will \(box.value.child.value)") }
    withTracking { _ = store.child.value } didSet: { _ in events("did \(box.value.child.value)") }
    store.mutate { $0.child.value = 9 }
    #expect(events.all == ["will 0", "did 9"])
  }

  @Test func anUntrackedReadOfAStateFieldInARequiredRegionIsReported() {
    let store = StateStore(Feature())
    let reports = untrackedReads(of: ["Feature", "Child", "StateStore<Feature>"]) {
      withTrackingRequired { _ = store.state.child.value }
    }.map(\.description)
    #expect(reports.count == 3)  // the store's state, the child, the child's value
    #expect(reports.contains { $0.contains("Tracked property 'child' of 'Feature'") })
    #expect(reports.contains { $0.contains("Tracked property 'value' of 'Child'") })
  }

  @Test func stateReadsInsideTrackingInARequiredRegionAreNotReported() {
    let store = StateStore(Feature())
    let reports = untrackedReads(of: ["Feature", "Child", "StateStore<Feature>"]) {
      withTrackingRequired {
        withTracking { _ = store.state.child.value } onChange: {}
      }
    }
    #expect(reports.isEmpty)
  }
}

/// Lets a test's `onChange` look at the store it observes.
struct UncheckedBox<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}
