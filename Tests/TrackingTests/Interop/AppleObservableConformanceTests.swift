import Observation
import Testing
import Tracking

/// Stands in for SwiftUI's `@Bindable` and `.environment(_:)`, which accept only
/// Apple `Observable` objects.
struct NeedsAppleObservable<Object: AnyObject & Observable> {
  let object: Object
}

func isAppleObservable<Subject: Observable>(_ subject: Subject) -> Bool { true }
func isAppleObservable<Subject>(_ subject: Subject) -> Bool { false }

@Trackable final class DeclaresObservableItself: Observable, @unchecked Sendable {
  var value = 0
}

@Suite("@Trackable classes are Apple Observable")
struct AppleObservableConformanceTests {
  @Test func aTrackableClassIsAcceptedWhereObservableIsRequired() {
    let counter = Counter()
    #expect(NeedsAppleObservable(object: counter).object === counter)
    #expect(isAppleObservable(counter))
    #expect(isAppleObservable(OurSubclass(log: EventLog())))  // inherited
    #expect(isAppleObservable(DeclaresObservableItself()))
    #expect(!isAppleObservable(Friend("not tracked")))
  }

  @Test func dynamicCastsSeeTheConformance() {
    let model: Any = Counter()
    #expect(model is any Observable)
    #expect(model is any Trackable)
  }
}

/// Relaying is process-wide: these run inside the serialized interop suite, and
/// restore the switch.
extension InteropTests {
  @Test func appleTrackingThroughTheObservableConformanceFiresWhenRelaying() {
    let wasOn = TrackingInterop.relaysToAppleObservation
    TrackingInterop.relaysToAppleObservation = true
    defer { TrackingInterop.relaysToAppleObservation = wasOn }

    func observeWithApple<Model: Observable & AnyObject>(
      _ model: Model, read: @escaping (Model) -> Void, log: EventLog
    ) {
      withObservationTracking { read(model) } onChange: { log("apple saw a change") }
    }
    let counter = Counter()
    let log = EventLog()
    observeWithApple(counter, read: { _ = $0.count }, log: log)
    counter.label = "unrelated"
    #expect(log.events.isEmpty)
    counter.count = 1
    #expect(log.events == ["apple saw a change"])
  }

  @Test func appleTrackingThroughTheObservableConformanceIsSilentWithoutRelaying() {
    let wasOn = TrackingInterop.relaysToAppleObservation
    TrackingInterop.relaysToAppleObservation = false
    defer { TrackingInterop.relaysToAppleObservation = wasOn }

    let counter = Counter()
    let log = EventLog()
    withObservationTracking { _ = counter.count } onChange: { log("apple saw a change") }
    counter.count = 1
    #expect(log.events.isEmpty)
  }
}
