import Clocks
@_spi(Testing) @testable import Tracking
import Testing

import TrackingTesting

/// Advances a test clock in steps until `task` finishes, so that the test does not
/// depend on when the helper's sleep registers with the clock. No real time passes;
/// a task still running after 100 virtual seconds is cancelled.
@UIActor
private func advance<T: Sendable>(
  _ clock: TestClock<Duration>, until task: Task<T, any Error>, step: Duration = .milliseconds(250)
) async -> Result<T, any Error> {
  let done = Received<Bool>()
  let finished = Task {
    let result = await task.result
    done.append(true)
    return result
  }
  for _ in 0..<400 where done.values.isEmpty {
    await clock.advance(by: step)
  }
  if done.values.isEmpty { task.cancel() }
  return await finished.value
}

extension TrackingTestingSuites {
  @Suite("TrackingTesting: test helpers")
  @UIActor
  struct TrackingTestingTests {
    // MARK: nextChange

    @Test func nextChangeReturnsTheNewValue() async throws {
      let meter = Meter()
      Task { meter.level = 5 }  // runs once this test suspends, after the tracking is installed
      // A long timeout: it only runs out if the change never comes, and a loaded
      // machine (the ThreadSanitizer run) may take more than the default second to
      // schedule the task.
      let level = try await nextChange(of: { meter.level }, timeout: .seconds(60))
      #expect(level == 5)
    }

    @Test func nextChangeIgnoresPropertiesTheExpressionDoesNotRead() async throws {
      let meter = Meter()
      Task {
        meter.name = "other"
        meter.level = 3
      }
      let level = try await nextChange(of: { meter.level }, timeout: .seconds(60))
      #expect(level == 3)
      #expect(meter.name == "other")
    }

    @Test func nextChangeTimesOutWithAClearMessage() async throws {
      let meter = Meter()
      let clock = TestClock()
      let waiting = Task { try await nextChange(of: { meter.level }, "meter.level", timeout: .seconds(1), clock: clock) }
      let result = await advance(clock, until: waiting)
      let error = try #require(throws: TrackingTestError.self) { try result.get() }
      guard case .timedOut(let expression, let after, _) = error else {
        Issue.record("unexpected error \(error)")
        return
      }
      #expect(expression == "meter.level")
      #expect(after == .seconds(1))
      let message = error.description
      #expect(message.hasPrefix("Timed out after 1.0 seconds waiting for a change of 'meter.level' ("))
      #expect(message.contains("TrackingTestingTests.swift:"))
    }

    @Test func aChangeBeforeTheTimeoutWins() async throws {
      let meter = Meter()
      let clock = TestClock()
      let waiting = Task { try await nextChange(of: { meter.level }, timeout: .seconds(10), clock: clock) }
      await untilSomethingSleeps(on: clock)  // tracking installed, timeout running
      await clock.advance(by: .seconds(9))
      meter.level = 42
      let result = await advance(clock, until: waiting)
      #expect(try result.get() == 42)
    }

    @Test func nextChangeOfAnExpressionThatReadsNothingFailsAtOnce() async throws {
      let error = await #expect(throws: TrackingTestError.self) {
        try await nextChange(of: { 1 }, "a constant")
      }
      #expect(error?.description.hasPrefix("'a constant' read no tracked property") == true)
    }

    @Test func cancellingTheWaitingTaskThrowsCancellationError() async throws {
      let meter = Meter()
      let clock = TestClock()
      let waiting = Task { try await nextChange(of: { meter.level }, clock: clock) }
      waiting.cancel()
      await #expect(throws: CancellationError.self) { try await waiting.value }
    }

    // MARK: expectNoChange

    @Test func expectNoChangePassesWhenOnlyOtherPropertiesChange() throws {
      let meter = Meter()
      try expectNoChange(of: { meter.level }) { meter.name = "renamed" }
    }

    @Test func expectNoChangeNamesThePropertyThatChanged() throws {
      let meter = Meter()
      let error = #expect(throws: TrackingTestError.self) {
        try expectNoChange(of: { meter.level }, "meter.level") { meter.level = 1 }
      }
      let message = try #require(error?.description)
      #expect(message.hasPrefix("Expected no change of 'meter.level', but "))
      // `\Meter.level` where key paths print their names, else `property #0 of Meter`.
      #expect(message.contains("Meter"))
      #expect(message.contains(" changed (TrackingTestingTests/TrackingTestingTests.swift:"))
      #expect(message.contains("TrackingTestingTests.swift:"))
    }

    @Test func expectNoChangeAfterTheActionReturnsIsNotItsConcern() throws {
      let meter = Meter()
      try expectNoChange(of: { meter.level }) {}
      meter.level = 2  // the tracking was cancelled when the helper returned
      #expect(meter.level == 2)
    }

    @Test func asyncExpectNoChangeCatchesAChangeDuringTheGracePeriod() async throws {
      let meter = Meter()
      let clock = TestClock()
      let checking = Task {
        try await expectNoChange(of: { meter.level }, "meter.level", gracePeriod: .seconds(1), clock: clock) {
          Task { meter.level = 7 }  // lands after the action returned
        }
      }
      let result = await advance(clock, until: checking)
      #expect(throws: TrackingTestError.self) { try result.get() }
      #expect(meter.level == 7)
    }

    @Test func asyncExpectNoChangePassesAfterAQuietGracePeriod() async throws {
      let meter = Meter()
      let clock = TestClock()
      let checking = Task {
        try await expectNoChange(of: { meter.level }, gracePeriod: .seconds(1), clock: clock) {
          Task { meter.name = "quiet" }
        }
      }
      let result = await advance(clock, until: checking)
      try result.get()
      #expect(meter.name == "quiet")
    }

    // MARK: changeCount

    @Test func changeCountCountsEachChangeOfWhatWasRead() {
      let meter = Meter()
      let count = changeCount(of: { meter.level }) {
        meter.level = 1
        meter.name = "ignored"
        meter.level = 2
        meter.level = 3
      }
      #expect(count == 3)
      #expect(changeCount(of: { meter.level }) { meter.name = "still ignored" } == 0)
    }
  }
}
