import Clocks
import Foundation
import Testing
import Observation
@_spi(Testing) import Tracking

/// The actor the models and most tests are isolated to, standing in for the main
/// actor of an app. (The tests first ran on the main actor. Hangs in parallel runs
/// were first blamed on it; they turned out to be TestClock races, fixed by
/// `untilSomethingSleeps(on:)`. An actor of our own still keeps these tests apart
/// from whatever else uses the main queue.)
@globalActor actor UIActor {
  static let shared = UIActor()
}

/// Every suite of this target, run one after another.
///
/// Several suites drive time with swift-clocks' `TestClock`, whose `advance` lets
/// other tasks reach their `sleep` by yielding a fixed number of times. When these
/// suites ran in parallel on 2 cores, that was now and then not enough: a sleep
/// registered after the advance that should have ended it, and the test waited
/// forever (about one run in five). Run serially they never did (15 of 15).
@Suite(.serialized) enum ContinuousTrackingSuites {}

/// Returns once something sleeps on `clock`: the operator under test has reached its
/// timer, so advancing the clock now ends that sleep. (`TestClock.advance` alone only
/// yields a fixed number of times first, which under load was sometimes too few.)
func untilSomethingSleeps(on clock: TestClock<Duration>) async {
  while true {
    do {
      try await clock.checkSuspension()  // returns while nothing sleeps
    } catch {
      return  // a sleep is pending
    }
    await Task.yield()
  }
}

@UIActor @Trackable final class ImageAdjustments {
  var brightness = 0.0
  var contrast = 0.0
  var saturation = 0.0
  var useContrast = false
}

@UIActor @Observable final class AppleImageAdjustments {
  var brightness = 0.0
  var contrast = 0.0
  var saturation = 0.0
  var useContrast = false
}

@Trackable final class Meter: @unchecked Sendable {
  var level = 0
  var name = "meter"
}

/// A thread-safe list of received values.
final class Received<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var storage: [Value] = []
  func append(_ value: Value) { lock.withLock { storage.append(value) } }
  var values: [Value] { lock.withLock { storage } }
}


@Trackable final class Scene: @unchecked Sendable {
  var title = "title"
  var count = 0
  var showsDetail = false
  var detail = "detail"
  /// What watches the object: one-shot observers (pending, or finished and not yet
  /// swept) and the nodes that read it.
  var observerCount: Int { _$trackingRegistrar.installedObserverCount + _$trackingRegistrar.readerCount }
}

/// Tells the time as `ContinuousClock` does, but every sleep fails at once with an error
/// other than cancellation (as `TestClock.run()` ends pending sleeps after its timeout).
struct FailingClock: Clock {
  struct SleepFailed: Error {}
  private let base = ContinuousClock()
  var now: ContinuousClock.Instant { base.now }
  var minimumResolution: Duration { base.minimumResolution }
  func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
    throw SleepFailed()
  }
}
