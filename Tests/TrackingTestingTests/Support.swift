import Testing
import Clocks
import Foundation
@_spi(Testing) @testable import Tracking

/// The actor these tests are isolated to, standing in for an app's main actor.
@globalActor actor UIActor {
  static let shared = UIActor()
}

/// The suites of this target run one after another: they drive a `TestClock`, whose
/// `advance` only yields a fixed number of times before ending a sleep.
@Suite(.serialized) enum TrackingTestingSuites {}

@Trackable final class Meter: @unchecked Sendable {
  var level = 0
  var name = "meter"
}

/// A thread-safe list of received values.
final class Received<Value: Sendable>: Sendable {
  private let storage = Locked<[Value]>([])
  func append(_ value: Value) { storage.withLock { $0.append(value) } }
  var values: [Value] { storage.withLock { $0 } }
}

/// Returns once something sleeps on `clock`, so advancing it now ends that sleep.
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
