import Testing
import Tracking

@TrackedState
struct Conditional {
  var always = 0
  #if true
    var inside = 0
  #else
    var inside = ""
  #endif
  weak var owner: Friend?
}

@Suite("Struct state fields inside #if, weak fields")
struct StateConditionalFieldTests {
  @Test func aFieldInsideIfConfigIsTracked() {
    let store = StateStore(Conditional(always: 1, inside: 2, owner: nil))
    let events = Events()
    withTracking { _ = store.inside } onChange: { events("inside") }
    withTracking { _ = store.always } onChange: { events("always") }
    store.inside = 3
    #expect(events.all == ["inside"])
    #expect(store.inside == 3)
  }

  @Test func aWeakFieldIsTrackedAndHoldsNothing() {
    let store = StateStore(Conditional())
    let events = Events()
    withTracking { _ = store.owner } onChange: { events("owner") }
    let log = EventLog()
    store.owner = Friend("a", log: log)  // released at once: the field is weak
    #expect(events.all == ["owner"])
    #expect(log.events == ["deinit a"])
    #expect(store.owner == nil)
  }
}
