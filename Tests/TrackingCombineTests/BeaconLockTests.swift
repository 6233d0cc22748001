#if canImport(Combine) || OpenCombine
@_spi(Testing) import Tracking
import Testing
import TrackingCombine

#if canImport(Combine)
  import Combine
#else
  import OpenCombine
#endif

/// A publisher that runs its owner's code when subscribed to, as a hand-written
/// `objectWillChange` may (a `CurrentValueSubject` emits on subscription, for example).
struct RunsCodeOnSubscribe: Publisher {
  typealias Output = Void
  typealias Failure = Never
  let onSubscribe: @Sendable () -> Void
  func receive<S: Subscriber>(subscriber: S) where S.Input == Void, S.Failure == Never {
    onSubscribe()
    Just(()).receive(subscriber: subscriber)
  }
}

/// A legacy model whose `objectWillChange` tracks another legacy model when subscribed.
final class ModelThatTracksOnSubscribe: ObservableObject, @unchecked Sendable {
  let other = LegacyModel()
  var objectWillChange: RunsCodeOnSubscribe {
    let other = other
    return RunsCodeOnSubscribe { withTracking { other.track() } onChange: {} }
  }
}

@Suite("Combine bridge: no user code under the beacon table's lock", .timeLimit(.minutes(1)))
struct BeaconLockTests {
  /// The bug: the bridge subscribed to `objectWillChange` while holding its process-wide
  /// table lock, so a publisher that runs tracking code on subscription re-entered the
  /// (non-recursive) lock and deadlocked.
  @Test func subscribingRunsThePublishersCodeOutsideTheLock() {
    let model = ModelThatTracksOnSubscribe()
    withTracking { model.track() } onChange: {}  // before the fix: never returned
    #expect(ChangeBeacons.hasBeacon(for: model.other))
  }
}
#endif
