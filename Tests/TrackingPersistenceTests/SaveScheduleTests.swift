import Testing

@testable import TrackingPersistence

/// The save policies' timing, on made-up times (milliseconds, as nanoseconds): no clock.
@Suite("Save schedule")
struct SaveScheduleTests {
  static let ms: UInt64 = 1_000_000

  @Test func immediateWritesEverySubmission() {
    var schedule = SaveSchedule(policy: .immediate)
    #expect(schedule.submitted(at: 0) == .writeNow)
    #expect(schedule.submitted(at: 1) == .writeNow)
  }

  @Test func trailingDebounceWritesOnceTheBurstSettles() {
    var schedule = SaveSchedule(policy: .debounce(seconds: 0.1))
    #expect(schedule.submitted(at: 0) == .wake(at: 100 * Self.ms))
    #expect(schedule.submitted(at: 50 * Self.ms) == .wait)  // a wake-up is already scheduled
    #expect(schedule.submitted(at: 90 * Self.ms) == .wait)
    // The wake-up comes at 100 ms, but the burst moved on: sleep until it settles.
    #expect(schedule.woke(at: 100 * Self.ms, hasPending: true) == .wake(at: 190 * Self.ms))
    #expect(schedule.woke(at: 190 * Self.ms, hasPending: true) == .writeNow)
    // The next burst starts afresh.
    #expect(schedule.submitted(at: 500 * Self.ms) == .wake(at: 600 * Self.ms))
  }

  @Test func leadingDebounceWritesTheFirstChangeAtOnceAndTheLastWhenSettled() {
    var schedule = SaveSchedule(policy: .debounce(seconds: 0.1, leading: true))
    #expect(schedule.submitted(at: 0) == .writeNow)
    #expect(schedule.submitted(at: 50 * Self.ms) == .wake(at: 150 * Self.ms))
    #expect(schedule.woke(at: 150 * Self.ms, hasPending: true) == .writeNow)
    // Settled: the next change is a new burst's first.
    #expect(schedule.submitted(at: 400 * Self.ms) == .writeNow)
  }

  @Test func leadingOnlyDebounceKeepsTheLastChangeWaitingForTheNextBurst() {
    var schedule = SaveSchedule(policy: .debounce(seconds: 0.1, leading: true, trailing: false))
    #expect(schedule.submitted(at: 0) == .writeNow)
    #expect(schedule.submitted(at: 50 * Self.ms) == .wait)  // pending, not dropped
    #expect(schedule.submitted(at: 120 * Self.ms) == .wait)  // still the same burst (50 + 100 > 120)
    #expect(schedule.submitted(at: 300 * Self.ms) == .writeNow)  // next burst: written, with it
  }

  @Test func throttleWritesAtMostOncePerWindowOnBothEdges() {
    var schedule = SaveSchedule(policy: .throttle(seconds: 0.1))
    #expect(schedule.submitted(at: 0) == .writeNow)  // leading edge
    #expect(schedule.submitted(at: 10 * Self.ms) == .wake(at: 100 * Self.ms))
    #expect(schedule.submitted(at: 20 * Self.ms) == .wait)
    #expect(schedule.woke(at: 100 * Self.ms, hasPending: true) == .writeNow)  // trailing edge…
    #expect(schedule.submitted(at: 150 * Self.ms) == .wake(at: 200 * Self.ms))  // …opened a new window
    #expect(schedule.woke(at: 200 * Self.ms, hasPending: true) == .writeNow)
    // A window with no change ends quietly; the next change is leading again.
    #expect(schedule.woke(at: 300 * Self.ms, hasPending: false) == .wait)
    #expect(schedule.submitted(at: 400 * Self.ms) == .writeNow)
  }

  @Test func trailingOnlyThrottleWaitsForTheWindowsEnd() {
    var schedule = SaveSchedule(policy: .throttle(seconds: 0.1, leading: false))
    #expect(schedule.submitted(at: 0) == .wake(at: 100 * Self.ms))
    #expect(schedule.submitted(at: 60 * Self.ms) == .wait)
    #expect(schedule.woke(at: 99 * Self.ms, hasPending: true) == .wake(at: 100 * Self.ms))  // early: sleep again
    #expect(schedule.woke(at: 100 * Self.ms, hasPending: true) == .writeNow)
  }

  @Test func leadingOnlyThrottleKeepsALaterChangeForTheNextWindow() {
    var schedule = SaveSchedule(policy: .throttle(seconds: 0.1, trailing: false))
    #expect(schedule.submitted(at: 0) == .writeNow)
    #expect(schedule.submitted(at: 40 * Self.ms) == .wait)  // pending until the next window opens
    #expect(schedule.submitted(at: 130 * Self.ms) == .writeNow)
  }

  @Test func aWriteThatFlushedEverythingMakesTheWakeUpANoOp() {
    var schedule = SaveSchedule(policy: .debounce(seconds: 0.1))
    #expect(schedule.submitted(at: 0) == .wake(at: 100 * Self.ms))
    // A flush wrote the value meanwhile: nothing is pending when the wake-up comes.
    #expect(schedule.woke(at: 100 * Self.ms, hasPending: false) == .wait)
  }

  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  @Test func durationsAndSecondsMakeTheSamePolicy() {
    #expect(SavePolicy.debounce(.milliseconds(250)) == .debounce(seconds: 0.25))
    #expect(SavePolicy.throttle(.seconds(2), trailing: false) == .throttle(seconds: 2, trailing: false))
    #expect(SavePolicy.throttle(seconds: 0.5).description == "throttle 0.5 s (leading, trailing)")
  }
}
