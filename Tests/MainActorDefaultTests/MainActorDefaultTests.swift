// This target is built with `-default-isolation MainActor` (SE-0466), the default of new
// app targets: every declaration here is main-actor isolated unless it says otherwise.
// It checks that each callback API accepts a closure that touches main-actor state, and
// the delivery rule when a change comes from another thread.
import Foundation
import Testing
import Tracking
import TrackingTesting

@Trackable final class Model {
  var count = 0
  var title = "title"
}

/// Stands in for a UI object: main-actor state that callbacks update.
final class Label {
  var text = ""
}

/// A tracked model whose storage is locked, so that another thread may write it while
/// main-actor code observes it.
nonisolated final class SharedCounter: Trackable, @unchecked Sendable {
  private let registrar = TrackingRegistrar()
  private let lock = NSLock()
  private var storage = 0

  var value: Int {
    get {
      registrar.access(self, property: 0, keyPath: \.value)
      return lock.withLock { storage }
    }
    set {
      registrar.withMutation(of: self, property: 0, keyPath: \.value) { lock.withLock { storage = newValue } }
    }
  }
}

/// A counter that a `@Sendable` callback may bump from any thread.
nonisolated final class Counted: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0
  func increment() { lock.withLock { count += 1 } }
  var value: Int { lock.withLock { count } }
}

/// Waits (bounded) until `condition` holds, letting the main actor run.
func until(_ condition: () -> Bool) async {
  for _ in 0..<100_000 where !condition() { await Task.yield() }
}

@Suite("Main-actor code: callbacks isolated to the caller")
struct MainActorDefaultTests {
  @Test func thisTargetIsReallyBuiltWithMainActorDefaultIsolation() {
    #expect(#isolation === MainActor.shared)
  }

  /// The ten-line program of the issue, unchanged.
  @Test func theTenLineProgramCompilesAndRuns() {
    let model = Model()
    let label = Label()
    withTracking { _ = model.count } didSet: { _ in label.text = "did \(model.count)" }
    let observation = observe { label.text = "\(model.count) items" }
    let perProperty = model.onChange(of: \.count) { old, new in label.text = "\(old) → \(new)" }
    #expect(label.text == "0 items")
    model.count = 1
    #expect(label.text == "0 → 1")
    observation.cancel()
    perProperty.cancel()
  }

  @Test func oneShotCallbacksRunSynchronouslyForMainActorChanges() {
    let model = Model()
    let label = Label()
    // The classic `onChange` and SE-0506's keep Apple's `@Sendable` signatures: main-actor
    // callbacks use the event forms, or `delivery: .onActor`.
    let counted = Counted()
    withTracking { _ = model.count } onChange: { counted.increment() }
    withTracking { _ = model.count } willSet: { _ in label.text += "willSet " }
    withTracking(options: [.didSet], delivery: .onActor) { _ = model.count } onChange: { _ in label.text += "didSet" }
    model.count = 1
    #expect(label.text == "willSet didSet")
    #expect(counted.value == 1)
  }

  @Test func continuousFormsRunOnTheMainActor() async {
    let model = Model()
    let label = Label()
    let continuous = withContinuousTracking(options: .didSet) { event in
      label.text = "\(event.kind) \(model.title)"
    }
    let coalesced = observeCoalesced { _ = model.title; label.text += "!" }
    await until { label.text.hasPrefix("initial") }
    model.title = "new"
    await until { label.text.hasPrefix("didSet new") }
    #expect(label.text.hasPrefix("didSet new"))
    continuous.cancel()
    coalesced.cancel()
  }

  @Test func sequencesDerivedValuesBindingsAndTheRenderLoop() async {
    let model = Model()
    let label = Label()
    let doubled = Derived { model.count * 2 }
    let loop = RenderLoop()
    let component = loop.register { label.text = "\(doubled.value)" }
    let binding = TrackedBindable(model).title
    binding.wrappedValue = "bound"
    model.count = 3
    loop.runCycle()
    #expect(label.text == "6" && model.title == "bound" && loop.runCount(of: component) == 2)
    var values = model.values(of: \.count).makeAsyncIterator()
    #expect(await values.next() == 3)
  }

  @Test func testHelpersTakeMainActorExpressions() async throws {
    let model = Model()
    let changes = changeCount(of: { model.count }) { model.count += 1; model.count += 1 }
    #expect(changes == 2)
    try expectNoChange(of: { model.count }) { model.title = "other" }
    Task { model.count = 10 }
    // A long timeout: it only runs out if the change never comes (under a loaded
    // ThreadSanitizer run, the main actor may take more than the default second).
    let next = try await nextChange(of: { model.count }, timeout: .seconds(60))
    #expect(next == 10)
  }

  // MARK: Delivery rules for a change made on another thread

  @Test func aOneShotCallbackIsDeliveredOnTheMainActorAfterTheChange() async {
    let shared = SharedCounter()
    let label = Label()
    withTracking { _ = shared.value } didSet: { _ in
      MainActor.assertIsolated()
      label.text = "seen \(shared.value)"
    }
    await Task.detached { shared.value = 5 }.value
    await until { !label.text.isEmpty }
    #expect(label.text == "seen 5")
  }

  @Test func aContinuousCallbackIsDeliveredOnTheMainActorCoalescingAndLosingNothing() async {
    let shared = SharedCounter()
    let label = Label()
    var runs = 0
    let token = observe {
      MainActor.assertIsolated()
      runs += 1
      label.text = "\(shared.value)"
    }
    await Task.detached { for value in 1...100 { shared.value = value } }.value
    await until { label.text == "100" }
    #expect(label.text == "100")
    #expect(runs <= 101)  // coalesced: at most one run per change, usually far fewer
    token.cancel()
  }
}
