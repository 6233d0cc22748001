import Clocks
import Foundation
import Testing
@_spi(Testing) @testable import Tracking

@Suite("Beyond Apple: whole objects, introspection, spies, when, derived lifetimes", .serialized)
struct BeyondAppleTests {
  // MARK: Whole-object and collection observation

  @Test func oneObserverHearsOfAnyPropertyOfTheObject() {
    let counter = Counter()
    let log = EventLog()
    let token = withContinuousTracking(options: .didSet, delivery: .immediate, firstRun: .immediate) { event in
      counter.trackEveryProperty()
      log("\(event.kind)")
    }
    #expect(ObservedMaskTests.entryCount(of: counter) == 1)  // one entry, not one per property
    counter.count = 1
    counter.label = "x"
    counter.history.append(3)
    #expect(log.events == ["initial", "didSet", "didSet", "didSet"])
    token.cancel()
  }

  @Test func theEventsOfAWholeObjectObservationSayWhichPropertyChanged() {
    let counter = Counter()
    let matched = Received<Bool>()
    withTracking(options: .didSet) { counter.trackEveryProperty() } onChange: { event in
      matched.append(event.matches(\Counter.label))
    }
    counter.label = "renamed"
    #expect(matched.values == [true])
  }

  @Test func elementChangesOfAnArrayOfObjectsReachOneObserver() {
    let rows = (0..<50).map { _ in Counter() }
    let runs = Received<Int>()
    let token = observe {
      rows.trackEveryElement()
      runs.append(1)
    }
    rows[17].count = 1
    rows[42].label = "x"
    #expect(runs.values.count == 3)
    token.cancel()
  }

  @Test func outsideAScopeTrackingEveryPropertyDoesNothing() {
    let counter = Counter()
    counter.trackEveryProperty()
    #expect(ObservedMaskTests.entryCount(of: counter) == 0)
  }

  // MARK: Introspection

  @Test func aTokenListsWhatItsObservationDependsOn() {
    let counter = Counter()
    let pair = Pair(1, 2)
    let token = observe { _ = counter.count; _ = pair.second }
    let dependencies = token.dependencies.map(\.description).sorted()
    #expect(dependencies.count == 2)
    #expect(dependencies.contains { $0.hasPrefix("Counter.") })
    #expect(token.dependencies.contains { $0.objectType == Counter.self && $0.propertyID == 0 })
    token.cancel()
    #expect(token.dependencies.isEmpty)
  }

  @Test func aTokenSaysWhyItsObservationLastRan() {
    let counter = Counter()
    let token = observe { _ = counter.count }
    #expect(token.lastEvent?.kind == .initial)
    counter.count = 4
    #expect(token.lastEvent?.kind == .didSet)
    #expect(token.lastEvent?.matches(\Counter.count) == true)
    #expect(token.lastEvent?.object == ObjectIdentifier(counter))
    token.cancel()
    #expect(token.lastEvent == nil)
  }

  /// A plain body's observation keeps what changed without the object (a
  /// `ChangeSite`): every part of the description, for a change delivered at once and
  /// for one queued in a transaction; the value is never readable afterwards.
  @Test func aTokensLastEventNamesThePropertyExactly() {
    let counter = Counter()
    let token = observe { _ = (counter.count, counter.label) }
    counter.label = "renamed"
    let event = token.lastEvent
    #expect(event?.propertyName == "label")
    #expect(event?.keyPath == \Counter.label)
    #expect(event?.propertyID == 1)
    #expect(event?.objectType == Counter.self)
    #expect(event?.matches(\Counter.label) == true)
    #expect(event?.matches(\Counter.count) == false)
    #expect(event?.isChange(of: counter, \Counter.label) == true)
    #expect(event?.value(of: \Counter.label) == nil)
    #expect(event?.description == "TrackingEvent(didSet Counter.label)")
    withTransaction { counter.count = 3 }
    #expect(token.lastEvent?.propertyName == "count")
    #expect(token.lastEvent?.matches(\Counter.label) == false)
    token.cancel()
  }

  /// A run that a derived value caused names it; a change that leaves the value equal
  /// causes no run (the pull finds it unchanged) and leaves the previous run's event.
  @Test func aTokensLastEventNamesTheDerivedValueThatCausedTheRun() {
    let counter = Counter()
    let parity = Derived { counter.count % 2 }
    let runs = Received<Int>()
    let token = observe { runs.append(parity.value); _ = counter.label }
    counter.label = "renamed"
    #expect(token.lastEvent?.matches(\Counter.label) == true)
    counter.count = 2
    #expect(runs.values == [0, 0])
    #expect(token.lastEvent?.matches(\Counter.label) == true)
    counter.count = 3
    #expect(runs.values == [0, 0, 1])
    #expect(token.lastEvent?.kind == .didSet)
    #expect(token.lastEvent?.objectType == Derived<Int>.self)
    #expect(token.lastEvent?.propertyName == "value")
    token.cancel()
    #expect(token.lastEvent == nil)
  }

  /// The parity of a counter's count, and a function that arms it: the recomputation
  /// after that calls `sideEffect` (once) before it returns, a write made while a run
  /// pulls the value. Armed and disarmed on the thread that recomputes, the test's.
  static func armedParity(
    of counter: Counter, _ sideEffect: @escaping @Sendable () -> Void
  ) -> (value: Derived<Int>, arm: () -> Void) {
    final class Armed: @unchecked Sendable { var on = false }
    let armed = Armed()
    let value = Derived { () -> Int in
      let count = counter.count
      if armed.on {
        armed.on = false
        sideEffect()
      }
      return count % 2
    }
    return (value, { armed.on = true })
  }

  /// A change that another thread makes while a run pulls the derived value that
  /// caused it belongs to the next run: the pulling run's own change is set aside,
  /// neither lost nor mistaken for the new one, and a derived value that kept its
  /// value runs nothing for itself. Each run records the event it was started for.
  @Test(arguments: [2, 3])
  func aChangeMadeWhileARunPullsIsTheNextRunsChange(count: Int) {
    final class TokenBox: @unchecked Sendable { var token: TrackingToken? }
    let counter = Counter()
    let other = Counter()
    let (parity, arm) = Self.armedParity(of: counter) { onAnotherThread { other.label = "renamed" } }
    let box = TokenBox()
    let runs = Received<String>()
    box.token = observe {
      _ = parity.value
      let event = box.token?.lastEvent
      runs.append("\(event?.objectType.map { "\($0)" } ?? "-").\(event?.propertyName ?? "-") \(other.label)")
    }
    arm()
    counter.count = count
    #expect(runs.values.first == "-.- counter")
    // The label's change is the last run's, named as such.
    #expect(runs.values.last == "Counter.label renamed")
    #expect(box.token?.lastEvent?.isChange(of: other, \Counter.label) == true)
    if count == 3 {
      // Parity became 1: its run names it, before the label's.
      #expect(runs.values == ["-.- counter", "Derived<Int>.value renamed", "Counter.label renamed"])
    } else {
      // Parity stayed 0: the only run after the first is the label's.
      #expect(runs.values == ["-.- counter", "Counter.label renamed"])
    }
    box.token?.cancel()
  }

  /// A derived value whose recomputation, during a run's pull, writes a property the
  /// run reads on the same thread: the write is the run's own (it marks nothing), so
  /// the pull counts it, and the run sees the new value even though the derived value
  /// kept its own.
  @Test func aWriteMadeOnTheThreadOfAPullIsSeenByItsRun() {
    let counter = Counter()
    let other = Counter()
    let (parity, arm) = Self.armedParity(of: counter) { other.label = "renamed" }
    let labels = Received<String>()
    let token = observe {
      _ = parity.value
      labels.append(other.label)
    }
    arm()
    counter.count = 2
    #expect(labels.values == ["counter", "renamed"])
    #expect(other.label == "renamed")
    token.cancel()
  }

  /// The event names the derived value by its identity while the value lives, and by
  /// nothing once it is gone, so that an object made later at the same address is
  /// never taken for it.
  @Test func aTokensLastEventForgetsADerivedValueThatIsGone() {
    let counter = Counter()
    var parity: Derived<Int>? = Derived { counter.count % 2 }
    let identity = ObjectIdentifier(parity!)
    let token = observe { [weak parity] in _ = parity?.value }
    counter.count = 1
    #expect(token.lastEvent?.object == identity)
    #expect(token.lastEvent?.objectType == Derived<Int>.self)
    parity = nil
    #expect(token.lastEvent?.kind == .didSet)
    #expect(token.lastEvent?.object == nil)
    #expect(token.lastEvent?.objectType == nil)
    token.cancel()
  }

  @Test func cancellingTheLastEventEndsTheObservation() {
    let counter = Counter()
    let runs = Received<Int>()
    let token = observe { runs.append(counter.count) }
    counter.count = 1
    // The event describes a change that one observer reported; cancelling it ends the
    // observation itself, as cancelling the event a run receives does.
    token.lastEvent?.cancel()
    counter.count = 2
    #expect(runs.values == [0, 1])
    #expect(token.dependencies.isEmpty)
    #expect(token.lastEvent == nil)
  }

  @Test func aSpySeesEveryNotificationWithItsCause() {
    let counter = Counter()
    let seen = Received<String>()
    let spy = TrackingDiagnostics.addSpy { notification in
      if notification.event.object == ObjectIdentifier(counter) {
        seen.append("\(notification.event.kind) \(notification.observerCount)")
      }
    }
    withTracking { _ = counter.count } onChange: {}
    withTracking { _ = counter.count } didSet: { _ in }
    counter.count = 1
    TrackingDiagnostics.removeSpy(spy)
    withTracking { _ = counter.count } onChange: {}
    counter.count = 2
    #expect(seen.values == ["willSet 1", "didSet 1"])
  }

  // MARK: when

  @Test func whenReturnsAtOnceIfTheConditionHolds() async throws {
    let counter = Counter()
    counter.count = 3
    try await when { counter.count == 3 }
  }

  /// On the main actor, where the condition runs too: a tracked property is not
  /// synchronized (nor is an `@Observable` one), so the condition's first run, made
  /// where `when` starts, must not overlap the writes. (Started in a child task of a
  /// nonisolated test, it read `count` on another thread while the test wrote it,
  /// which ThreadSanitizer reported once.)
  @MainActor @Test func whenResumesAfterTheChangeThatMakesItTrue() async throws {
    let counter = Counter()
    let waited = Task { @MainActor in try await when { counter.count >= 2 } }
    await Task.yield()
    counter.count = 1
    counter.count = 2
    try await waited.value
    #expect(counter.count == 2)
  }

  @Test func whenThrowsOnTimeoutAndOnCancellation() async throws {
    let counter = Counter()
    let clock = TestClock()
    let waiting = Task { try await when(timeout: .seconds(1), clock: clock) { counter.count == 99 } }
    await untilSomethingSleeps(on: clock)
    await clock.advance(by: .seconds(1))
    await #expect(throws: WhenTimeoutError(timeout: .seconds(1))) { try await waiting.value }

    let cancelled = Task { try await when { counter.count == 99 } }
    cancelled.cancel()
    await #expect(throws: CancellationError.self) { try await cancelled.value }
  }

  // MARK: Derived values

  @Test func aDerivedValueWithCustomEqualityNotifiesOnlyWhenItChangesByThatRule() {
    let counter = Counter()
    let tens = Derived(isEqual: { $0 / 10 == $1 / 10 }) { counter.count }
    let seen = Received<Int>()
    let token = observe { seen.append(tens.value) }
    counter.count = 5  // same ten: no notification
    counter.count = 12
    #expect(seen.values == [0, 12])
    token.cancel()
  }

  @Test func anUnobservedDerivedValueStopsObservingItsInputsUntilItIsReadAgain() {
    let counter = Counter()
    let doubled = Derived { counter.count * 2 }
    let token = observe { _ = doubled.value }
    #expect(ObservedMaskTests.entryCount(of: counter) == 1)
    token.cancel()
    counter.count = 1  // nobody observes `doubled`: it lets go of `count`
    counter.count = 2  // (the next write sweeps the released entry)
    #expect(ObservedMaskTests.entryCount(of: counter) == 0)
    #expect(doubled.value == 4)  // read again: computes, and observes its input again
    #expect(ObservedMaskTests.entryCount(of: counter) == 1)
  }
}
