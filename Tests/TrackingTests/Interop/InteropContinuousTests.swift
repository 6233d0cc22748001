import Observation
import Testing
@_spi(Testing) import Tracking

/// Apple `@Observable` objects read by trackings that take did-sets and by continuous
/// observations, with ``TrackingInterop/observesAppleObservables`` on. In the
/// serialized interop suite: the switch is process-wide.
extension InteropTests {
  /// The bug: Apple's tracking reports only a will-set, so a tracking with both options
  /// heard the will-set and then stayed pending for good, its did-set lost.
  @Test(.observingAppleObjects) func aTrackingWithBothOptionsHearsTheDidSetOfAnAppleChange() {
    let apple = AppleModel(log: EventLog())
    let log = EventLog()
    let tracking = withCancellableTracking(options: [.willSet, .didSet]) { _ = apple.a } onChange: { event in
      log("\(event.kind)")
    }.tracking
    apple.a = 1
    #expect(log.events == ["willSet", "didSet"])
    #expect(!tracking.isPending)
    apple.a = 2
    #expect(log.events == ["willSet", "didSet"])
  }

  /// The bug: continuous observations ignored Apple objects even with the switch on, so
  /// `observe` over an Apple model never ran again. Now an Apple change schedules a run
  /// on the body's actor, which sees the new value (the write, made on that actor, has
  /// landed by then). The time limit catches a run that never comes.
  @Test(.observingAppleObjects, .timeLimit(.minutes(1))) @MainActor
  func continuousObservationRunsAgainAfterAnAppleChange() async {
    let apple = AppleModel(log: EventLog())
    let (values, seen) = AsyncStream<Int>.makeStream()
    var runs = values.makeAsyncIterator()
    let token = observe { seen.yield(apple.a) }
    #expect(await runs.next() == 0)
    apple.a = 1
    #expect(await runs.next() == 1)
    apple.a = 2
    apple.a = 3  // coalesced with the change before: one run, after both
    #expect(await runs.next() == 3)
    token.cancel()
    apple.a = 4
    seen.finish()
    #expect(await runs.next() == nil)  // no run after cancellation
  }

  /// A `Derived` over an Apple object, observed continuously: every change reaches the
  /// observation with the derived value of the new input.
  @Test(.observingAppleObjects, .timeLimit(.minutes(1))) @MainActor
  func continuousObservationOfADerivedValueOverAnAppleObject() async {
    let apple = AppleModel(log: EventLog())
    let doubled = Derived { apple.a * 2 }
    let (values, seen) = AsyncStream<Int>.makeStream()
    var runs = values.makeAsyncIterator()
    let token = observe { seen.yield(doubled.value) }
    #expect(await runs.next() == 0)
    apple.a = 1
    #expect(await runs.next() == 2)
    apple.a = 2
    #expect(await runs.next() == 4)
    token.cancel()
  }

  /// With the switch on, a derived value that reads only our objects keeps its one input
  /// observer, as with the switch off. (It used to install an observer per
  /// recomputation, which made the observer-reuse tests fail when they ran while this
  /// suite had the switch on.)
  @Test(.observingAppleObjects) func aDerivedValueOverOurObjectsIsObservedAsWithTheSwitchOff() {
    let inputs = DerivedInputs()
    let sum = Derived { inputs.a + inputs.b }
    let runs = Received<Int>()
    let token = observe { runs.append(sum.value) }
    for value in 2...11 { inputs.a = value }
    #expect(runs.values == [11] + (2...11).map { $0 + 10 })
    #expect(sum.inputRelinkCount == 1)
    #expect(inputs.observerCount == 1)
    token.cancel()
  }

  /// A will-set continuous tracking of an Apple object runs as one of a tracked object
  /// does: at the will-set (old value), then once more after the change (new value) —
  /// for the Apple object that second run is scheduled, not run in Apple's will-set.
  @Test(.observingAppleObjects, .timeLimit(.minutes(1))) @MainActor
  func willSetContinuousTrackingOfAnAppleObjectRunsAsForOurs() async {
    func runs(reading read: @escaping @MainActor @Sendable () -> Int, change: () -> Void) async -> [String] {
      let (values, seen) = AsyncStream<String>.makeStream()
      var iterator = values.makeAsyncIterator()
      let token = withContinuousTracking(options: .willSet, delivery: .immediate, firstRun: .immediate) { event in
        seen.yield("\(event.kind) \(read())")
      }
      var result = [await iterator.next()!]
      change()
      result.append(await iterator.next()!)
      result.append(await iterator.next()!)
      token.cancel()
      return result
    }
    let ours = Counter()
    let apple = AppleModel(log: EventLog())
    let oursRuns = await runs(reading: { ours.count }, change: { ours.count = 1 })
    let appleRuns = await runs(reading: { apple.a }, change: { apple.a = 1 })
    #expect(oursRuns == ["initial 0", "willSet 0", "didSet 1"])
    #expect(appleRuns == oursRuns)
  }
}

/// Turns one of ``TrackingInterop``'s switches on for one test, and back to what it was
/// when the test ends. Only for tests of the serialized interop suite: the switches are
/// process-wide.
struct InteropSwitchOn: TestTrait, TestScoping {
  let isOn: @Sendable () -> Bool
  let set: @Sendable (Bool) -> Void

  func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    let wasOn = isOn()
    set(true)
    defer { set(wasOn) }
    try await function()
  }
}

extension Trait where Self == InteropSwitchOn {
  /// ``TrackingInterop/observesAppleObservables`` on while the test runs.
  static var observingAppleObjects: Self {
    Self(isOn: { TrackingInterop.observesAppleObservables }, set: { TrackingInterop.observesAppleObservables = $0 })
  }

  /// ``TrackingInterop/relaysToAppleObservation`` on while the test runs.
  static var relayingToApple: Self {
    Self(isOn: { TrackingInterop.relaysToAppleObservation }, set: { TrackingInterop.relaysToAppleObservation = $0 })
  }
}
