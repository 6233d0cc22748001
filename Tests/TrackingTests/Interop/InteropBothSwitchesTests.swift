import Observation
import Testing
@_spi(Testing) import Tracking

/// Both switches on: our objects relayed to Apple, and our trackings run inside Apple's
/// tracking (to see Apple objects), which then also sees our relayed objects. In the
/// serialized interop suite: the switches are process-wide.
extension InteropTests {
  /// The bug: Apple's tracking around the scope saw the relayed object too, and its
  /// `onChange` reported the change a second time: two will-sets.
  @Test(.observingAppleObjects, .relayingToApple) func withBothSwitchesOnATrackingHearsOneWillSetAndOneDidSet() {
    let counter = Counter()
    let log = EventLog()
    let tracking = withCancellableTracking(options: [.willSet, .didSet]) { _ = counter.count } onChange: { event in
      log("\(event.kind)")
    }.tracking
    counter.count = 1
    #expect(log.events == ["willSet", "didSet"])
    #expect(!tracking.isPending)
  }

  /// An Apple tracking around the read of a derived value (a SwiftUI body) hears a
  /// change of the value's inputs, also when the value's run is made inside Apple's
  /// tracking of its own (both switches on).
  @Test(.observingAppleObjects, .relayingToApple) func appleTrackingAroundADerivedValueHearsItsInputsWithBothSwitchesOn() {
    let inputs = DerivedInputs()
    let parity = Derived { inputs.a % 2 }
    let log = EventLog()
    withObservationTracking { _ = parity.value } onChange: { log("apple saw a change") }
    inputs.b = 20  // not read
    #expect(log.events.isEmpty)
    inputs.a = 4
    #expect(log.events == ["apple saw a change"])
    #expect(parity.value == 0)
  }

  /// The bug: with both switches on, a derived value's run inside Apple's tracking took
  /// our own objects, relayed by a nested value's run, for Apple ones, so after each
  /// change it was recomputed at every read instead of once.
  @Test(.observingAppleObjects, .relayingToApple) func withBothSwitchesOnADiamondRecomputesEachValueOncePerChange() {
    Diamond().expectOneRecomputationPerChange()
  }
}
