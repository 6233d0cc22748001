import Testing
@_spi(Testing) import Tracking

@Trackable private final class Basket: @unchecked Sendable {
  var items: [String] = []
  var owner = "Ada"
  var note = ""
}

@Trackable private final class Shelf: @unchecked Sendable {
  var items: [Counted]
  init(items: [Counted]) { self.items = items }
}

/// Turns ``TrackingIntrospection`` on for one test and back to what it was. The switch
/// is process-wide: the suite is serialized, and what it changes for nodes made in
/// other suites meanwhile is only that they record the causes of their runs.
private struct IntrospectionOn: TestTrait, TestScoping {
  func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    let wasOn = TrackingIntrospection.isEnabled
    TrackingIntrospection.isEnabled = true
    defer { TrackingIntrospection.isEnabled = wasOn }
    try await function()
  }
}

extension Trait where Self == IntrospectionOn {
  fileprivate static var introspecting: Self { Self() }
}

/// `TrackingIntrospection`: why an observation or a derived value last ran, and the
/// registry behind `TrackingGraph.current()`.
@Suite("Introspection: why a node ran", .serialized)
struct TrackingIntrospectionTests {
  @Test(.introspecting) func aRunSaysWhichChangeCausedItWithOldAndNewValues() {
    let basket = Basket()
    let token = observe { _ = (basket.items, basket.owner) }
    #expect(token.lastRunCauses.isEmpty)  // the first run has no cause
    basket.items.append("tea")
    let causes = token.lastRunCauses
    #expect(causes.count == 1)
    #expect(causes.first?.kind == .didSet)
    #expect(causes.first?.objectType == Basket.self)
    #expect(causes.first?.propertyName == "items")
    #expect(causes.first?.oldValue == "[]")
    #expect(causes.first?.newValue == #"["tea"]"#)
    #expect(causes.first?.description == #"Basket.items: [] → ["tea"]"#)
    token.cancel()
  }

  /// The causes are those of the latest run: a run replaces them, and the changes of a
  /// transaction are all there, in the order they were made.
  @Test(.introspecting) func aTransactionsRunListsEveryChangeInOrder() {
    let basket = Basket()
    let token = observe { _ = (basket.items, basket.owner) }
    basket.owner = "Bob"
    #expect(token.lastRunCauses.map(\.description) == ["Basket.owner: Ada → Bob"])
    withTransaction {
      basket.items = ["milk"]
      basket.owner = "Cy"
    }
    #expect(
      token.lastRunCauses.map(\.description) == [#"Basket.items: [] → ["milk"]"#, "Basket.owner: Bob → Cy"])
    token.cancel()
  }

  /// A property changed several times before the run is one cause, from its value
  /// before the first change to its value after the latest, where it first changed:
  /// what a node keeps is bounded by what it read, however many writes it waits for.
  @Test(.introspecting) func aPropertyChangedSeveralTimesBeforeTheRunIsOneCause() {
    let basket = Basket()
    let token = observe { _ = (basket.items, basket.owner) }
    withTransaction {
      basket.owner = "Bob"
      basket.items = ["milk"]
      basket.owner = "Cy"
      for index in 0..<1_000 { basket.owner = "Dee \(index)" }
    }
    #expect(
      token.lastRunCauses.map(\.description) == [
        "Basket.owner: Ada → Dee 999", #"Basket.items: [] → ["milk"]"#,
      ])
    token.cancel()
  }

  /// A large collection is described by its first elements and how many more, not
  /// element by element.
  @Test(.introspecting) func aLargeCollectionsChangeIsDescribedWithinTheBound() {
    let basket = Basket()
    let token = observe { _ = basket.items }
    basket.items = (0..<1_000).map { "\($0)" }
    let first16 = (0..<16).map { "\"\($0)\"" }.joined(separator: ", ")
    #expect(token.lastRunCauses.map(\.description) == ["Basket.items: [] → [\(first16), … 984 more]"])
    token.cancel()
  }

  /// Recording a write of a 1 000-element array describes 32 elements: the first 16 of
  /// the old value and of the new (it described all 2 000).
  @Test(.introspecting) func recordingALargeCollectionsChangeDescribesBoundedElements() {
    let counter = Counted.Counter()
    let shelf = Shelf(items: (0..<1_000).map { Counted(value: $0, counter: counter) })
    let token = observe { _ = shelf.items }
    shelf.items[999] = Counted(value: -1, counter: counter)
    #expect(counter.count == 32)
    #expect(token.lastRunCauses.count == 1)
    token.cancel()
  }

  /// A property the run did not read is no cause: its change does not reach the node.
  @Test(.introspecting) func aChangeTheRunDidNotReadIsNoCause() {
    let basket = Basket()
    let token = observe { _ = basket.owner }
    basket.note = "fragile"
    #expect(token.lastRunCauses.isEmpty)
    basket.owner = "Bob"
    #expect(token.lastRunCauses.map(\.propertyName) == ["owner"])
    token.cancel()
  }

  /// A derived value's recomputation names the property that changed; a node that read
  /// the derived value names the value.
  @Test(.introspecting) func derivedValuesSayWhyTheyRecomputed() {
    let basket = Basket()
    let count = Derived { basket.items.count }
    count.name = "count"
    let token = observe { _ = count.value }
    basket.items = ["a", "b"]
    #expect(count.lastRecomputationCauses.map(\.description) == [#"Basket.items: [] → ["a", "b"]"#])
    let cause = token.lastRunCauses.first
    #expect(token.lastRunCauses.count == 1)
    #expect(cause?.propertyName == "value")
    #expect(cause.map { String(describing: $0.objectType!) } == "Derived<Int>")
    token.cancel()
  }

  /// Off when the node was made, it keeps nothing, whatever the switch says later.
  @Test func aNodeMadeWithIntrospectionOffKeepsNoCauses() {
    let basket = Basket()
    let token = observe { _ = basket.owner }
    let wasOn = TrackingIntrospection.isEnabled
    TrackingIntrospection.isEnabled = true
    defer { TrackingIntrospection.isEnabled = wasOn }
    basket.owner = "Bob"
    #expect(token.lastRunCauses.isEmpty)
    token.cancel()
  }

  /// Turned off, recording stops at once, even for nodes made while it was on.
  @Test(.introspecting) func turningItOffStopsTheRecording() {
    let basket = Basket()
    let token = observe { _ = basket.owner }
    basket.owner = "Bob"
    #expect(token.lastRunCauses.map(\.newValue) == ["Bob"])
    TrackingIntrospection.isEnabled = false
    basket.owner = "Cy"
    #expect(token.lastRunCauses.isEmpty)
    token.cancel()
  }

  /// `TrackingGraph.current()` holds the nodes made while introspection was on and
  /// still alive, in the order they were made.
  @Test(.introspecting) func theCurrentGraphHoldsTheLiveNodesMadeWhileOn() {
    let basket = Basket()
    let count = Derived { basket.items.count }
    count.name = "introspection.count"
    var token: TrackingToken? = observe { _ = count.value }
    token?.name = "introspection.view"
    let labels = TrackingGraph.current().nodes.map(\.label)
    let mine = labels.filter { $0.hasPrefix("introspection.") }
    #expect(mine == ["introspection.count", "introspection.view"])
    #expect(labels.contains("Basket"))
    token?.cancel()
    token = nil
    #expect(!TrackingGraph.current().nodes.map(\.label).contains("introspection.view"))
  }
}
