import Clocks
import Testing
@_spi(Testing) import Tracking

/// Continuous observation with a timing, an error handler, and `react`, driven by a
/// `TestClock`.
///
/// An advance that should fire a timer goes a millisecond past its deadline: the timer's
/// task may start sleeping only after the advance, and `TestClock` suspends a sleep whose
/// deadline equals its `now` until the next advance, but returns at once from one whose
/// deadline has passed.
extension ContinuousTrackingSuites {
  @Suite("observe(timing:) and react(to:)")
  struct ObservationTimingTests {
    /// An observation of `meter.level` whose runs arrive in a stream.
    private func levels(
      _ meter: Meter, timing: ObservationTiming
    ) -> (AsyncStream<Int>.Iterator, TrackingToken) {
      let (stream, continuation) = AsyncStream<Int>.makeStream()
      let token = observe(timing: timing) { continuation.yield(meter.level) }
      return (stream.makeAsyncIterator(), token)
    }

    @Test func aDelayedRunComesAfterTheIntervalWithTheChangesMadeMeanwhile() async {
      let clock = TestClock()
      let meter = Meter()
      var (runs, token) = levels(meter, timing: .delay(.seconds(1), clock: clock))
      #expect(await runs.next() == 0)  // the first run is now
      meter.level = 1
      meter.level = 2
      await clock.advance(by: .milliseconds(1_001))
      #expect(await runs.next() == 2)
      token.cancel()
    }

    @Test func aDebouncedRunWaitsForAPauseInTheChanges() async {
      let clock = TestClock()
      let meter = Meter()
      var (runs, token) = levels(meter, timing: .debounce(for: .seconds(1), clock: clock))
      #expect(await runs.next() == 0)
      meter.level = 1  // would run at 1 s
      await clock.advance(by: .milliseconds(500))
      meter.level = 2  // restarts: 1.5 s
      await clock.advance(by: .milliseconds(500))
      meter.level = 3  // restarts: 2 s (a delay would have run at 1 s, reading 2)
      await clock.advance(by: .milliseconds(1_001))
      #expect(await runs.next() == 3)
      token.cancel()
    }

    @Test func aThrottledObservationRunsAtOnceThenAtMostOncePerInterval() async {
      let clock = TestClock()
      let meter = Meter()
      var (runs, token) = levels(meter, timing: .throttle(for: .seconds(1), clock: clock))
      #expect(await runs.next() == 0)
      meter.level = 1  // no run in the last interval: at once
      #expect(await runs.next() == 1)
      meter.level = 2  // within the interval: at its end, with the latest value
      meter.level = 3
      await clock.advance(by: .milliseconds(1_001))
      #expect(await runs.next() == 3)
      token.cancel()
    }

    /// A clock whose sleep fails (not by cancellation) runs at once rather than never:
    /// before, the failed timer stayed set and the observation never ran again.
    @Test(.timeLimit(.minutes(1))) func aFailingClockRunsEarlyInsteadOfNever() async {
      for timing in [
        ObservationTiming.throttle(for: .seconds(3600), clock: FailingClock()),
        .debounce(for: .seconds(3600), clock: FailingClock()),
        .delay(.seconds(3600), clock: FailingClock()),
      ] {
        let meter = Meter()
        var (runs, token) = levels(meter, timing: timing)
        #expect(await runs.next() == 0)
        meter.level = 1
        #expect(await runs.next() == 1)
        meter.level = 2
        #expect(await runs.next() == 2)
        token.cancel()
      }
    }

    @Test func aCustomSchedulerDecidesWhenTheRunHappens() {
      let meter = Meter()
      let seen = Received<Int>()
      let pending = Received<@Sendable () -> Void>()
      let token = observe(timing: .custom { run in pending.append(run) }) { seen.append(meter.level) }
      meter.level = 1
      meter.level = 2
      #expect(seen.values == [0])
      #expect(pending.values.count == 1)  // one run pending, for both changes
      pending.values[0]()
      #expect(seen.values == [0, 2])
      token.cancel()
    }

    @Test func anErrorGoesToTheHandlerAndTheObservationGoesOn() {
      struct TooHigh: Error {}
      let meter = Meter()
      let errors = Received<String>()
      let seen = Received<Int>()
      let token = observe(onError: { errors.append("\($0)") }) {
        if meter.level > 1 { throw TooHigh() }
        seen.append(meter.level)
      }
      meter.level = 2
      meter.level = 1
      #expect(errors.values == ["TooHigh()"])
      #expect(seen.values == [0, 1])
      token.cancel()
    }

    @Test func reactRunsTheEffectOnlyWhenTheValueChanges() {
      let meter = Meter()
      let parities = Received<Int>()
      let token = react(to: { meter.level % 2 }) { parity in parities.append(parity) }
      meter.level = 2  // parity 0 again: no effect
      meter.level = 3
      meter.level = 5
      #expect(parities.values == [1])
      token.cancel()
    }

    @Test func reactFiresImmediatelyAndUsesTheGivenEquality() {
      let meter = Meter()
      let seen = Received<Int>()
      let token = react(to: { meter.level }, equals: { abs($0 - $1) < 10 }, fireImmediately: true) { seen.append($0) }
      meter.level = 5
      meter.level = 20
      #expect(seen.values == [0, 20])
      token.cancel()
    }

    @Test func theEffectIsNotTracked() {
      let meter = Meter()
      let names = Received<String>()
      let token = react(to: { meter.level }) { _ in names.append(meter.name) }
      meter.name = "not watched"
      meter.level = 1
      #expect(names.values == ["not watched"])
      token.cancel()
    }
  }
}
