import Testing

@testable import Tracking

/// The relay to Apple's registrar lives as long as its object: the object's storage
/// holds its one reference. In the serialized interop suite: the switch is
/// process-wide.
extension InteropTests {
  @Test(.relayingToApple) func theRelayToAppleGoesWithItsObject() {
    weak var relay: AnyObject?
    do {
      let counter = Counter()
      _ = counter.count  // relayed: makes the relay
      relay = AppleRelay.of(ObservedMaskTests.storage(counter)).takeUnretainedValue()
      #expect(relay != nil)
      _ = counter.count  // the same relay, not another one
      #expect(AppleRelay.of(ObservedMaskTests.storage(counter)).takeUnretainedValue() === relay)
    }
    #expect(relay == nil)
  }
}
