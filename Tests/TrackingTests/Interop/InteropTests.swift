import Dispatch
import Observation
import Testing
@_spi(Testing) import Tracking

/// Both interop switches are process-wide. Turning them on never changes what our own
/// trackings see (it only adds Apple's), so other suites running in parallel are
/// unaffected; this suite still runs its tests one at a time and restores the switches.
#if canImport(SwiftUI)
  let canImportSwiftUI = true
#else
  let canImportSwiftUI = false
#endif

@Suite("Interop with Apple's Observation", .serialized)
struct InteropTests {
  /// The bug: an app that turned relaying off at launch had it switched back on when
  /// its first tracked object was made (the platform default was applied then).
  @Test func anAppsChoiceOfRelayingWinsOverTheDefault() {
    let wasOn = TrackingInterop.relaysToAppleObservation
    defer {
      TrackingInterop.relaysToAppleObservation = wasOn
      TrackingInterop.forgetRelayingChoice()
    }
    TrackingInterop.relaysToAppleObservation = false  // the app, at launch
    TrackingInterop.applyDefault(relaying: true)  // what the first registrar does where SwiftUI exists
    #expect(!TrackingInterop.relaysToAppleObservation)
    TrackingInterop.forgetRelayingChoice()
    TrackingInterop.applyDefault(relaying: true)  // no choice made: the default applies
    #expect(TrackingInterop.relaysToAppleObservation)
  }

  /// The bug: with Apple's objects observed, a scope that read nothing returned a
  /// pending tracking (and evaluated its callback).
  @Test(.observingAppleObjects) func aScopeThatReadNothingIsNotPendingWhenObservingAppleObjects() {
    let (value, tracking) = withCancellableTracking { 42 } onChange: {}
    #expect(value == 42)
    #expect(!tracking.isPending)
    let apple = AppleModel(log: EventLog())
    let appleOnly = withCancellableTracking { _ = apple.a } onChange: {}.tracking
    #expect(appleOnly.isPending)  // an Apple object was read: it can still fire
    appleOnly.cancel()
  }

  @Test(.relayingToApple) func appleTrackingSeesOurObjectsWhenRelaying() {
    #expect(TrackingInterop.relaysToAppleObservation)

    let counter = Counter()
    let log = EventLog()
    withObservationTracking { _ = counter.count } onChange: { log("apple saw count") }
    counter.label = "unrelated"
    #expect(log.events.isEmpty)
    counter.count = 1
    #expect(log.events == ["apple saw count"])
    counter.count = 2
    #expect(log.events == ["apple saw count"])
  }

  /// A read our scope has made already records nothing more, but is still relayed: an
  /// Apple tracking nested in our scope that reads only that property hears its change.
  @Test(.relayingToApple) func aReadOurScopeMadeAlreadyIsStillRelayedToApple() {
    let counter = Counter()
    let log = EventLog()
    let tracking = withCancellableTracking {
      _ = counter.count
      withObservationTracking { _ = counter.count } onChange: { log("apple saw count") }
    } onChange: {
      log("ours saw count")
    }.tracking
    counter.count = 1
    #expect(log.events.sorted() == ["apple saw count", "ours saw count"])
    tracking.cancel()
  }

  /// The relay is made on first use and then read without the lock: threads racing to
  /// make it must all end up registering with the same one, or some of Apple's
  /// trackings would miss the change. (Also run under ThreadSanitizer.)
  @Test(.relayingToApple) func threadsRacingToMakeTheRelayShareOne() {
    for round in 0..<200 {
      let counter = Counter()  // fresh: no relay yet
      let log = EventLog()
      DispatchQueue.concurrentPerform(iterations: 4) { worker in
        withObservationTracking { _ = counter.count } onChange: { log("\(round)-\(worker)") }
      }
      counter.count = 1
      #expect(log.events.count == 4, "round \(round): \(log.events)")
    }
  }

  /// Relaying is off by default only where SwiftUI does not exist (this machine).
  @Test(.enabled(if: !canImportSwiftUI)) func appleTrackingDoesNotSeeOurObjectsByDefault() {
    #expect(!TrackingInterop.relaysToAppleObservation)
    let counter = Counter()
    let log = EventLog()
    withObservationTracking { _ = counter.count } onChange: { log("apple saw count") }
    counter.count = 1
    #expect(log.events.isEmpty)
  }

  @Test(.observingAppleObjects) func ourTrackingSeesAppleObjectsWhenEnabled() {
    let apple = AppleModel(log: EventLog())
    let ours = Counter()
    let log = EventLog()
    withTracking { _ = apple.a; _ = ours.count } onChange: { log("fired") }
    apple.b = "unrelated"
    #expect(log.events.isEmpty)
    apple.a = 1
    #expect(log.events == ["fired"])
    ours.count = 1  // already fired once: nothing more
    #expect(log.events == ["fired"])

    withTracking { _ = apple.a; _ = ours.count } onChange: { log("second") }
    ours.count = 2
    apple.a = 2  // the Apple side of a fired tracking does nothing
    #expect(log.events == ["fired", "second"])
  }

  @Test(.observingAppleObjects) func appleChangeReachesACancellableDidChangeTracking() {
    let apple = AppleModel(log: EventLog())
    let log = EventLog()
    let token = withCancellableTracking(options: .didSet) { _ = apple.a } onChange: { change in
      log("subject is \(change.object == nil ? "unknown" : "known")")
    }.tracking
    apple.a = 5
    #expect(log.events == ["subject is unknown"])
    #expect(!token.isPending)
  }

  @Test func ourTrackingIgnoresAppleObjectsByDefault() {
    #expect(!TrackingInterop.observesAppleObservables)
    let apple = AppleModel(log: EventLog())
    let log = EventLog()
    withTracking { _ = apple.a } onChange: { log("fired") }
    apple.a = 1
    #expect(log.events.isEmpty)
  }
}
