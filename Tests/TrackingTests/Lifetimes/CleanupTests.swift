import Testing
@_spi(Testing) import Tracking

extension LifetimeSuites {
  @Suite("onCleanup")
  struct CleanupTests {
    @Test func runsBeforeTheNextRunAndAtCancellationInReverseOrder() {
      let meter = Meter()
      let log = Received<String>()
      let token = observe {
        let level = meter.level
        log.append("run \(level)")
        onCleanup { log.append("first cleanup of \(level)") }
        onCleanup { log.append("second cleanup of \(level)") }
      }
      meter.level = 1
      token.cancel()
      meter.level = 2
      #expect(
        log.values == [
          "run 0", "second cleanup of 0", "first cleanup of 0", "run 1", "second cleanup of 1", "first cleanup of 1",
        ])
    }

    @Test func runsOnceWhenTheTokenIsReleased() {
      let meter = Meter()
      let cleanups = Received<Int>()
      var token: TrackingToken? = observe {
        let level = meter.level
        onCleanup { cleanups.append(level) }
      }
      _ = token
      token = nil
      meter.level = 1
      #expect(cleanups.values == [0])
    }

    @Test func aRunSkippedBecauseNoValueItReadChangedKeepsItsCleanup() {
      let counter = Counter()
      let parity = Derived { counter.count % 2 }
      let cleanups = Received<Int>()
      let token = observe {
        let value = parity.value
        onCleanup { cleanups.append(value) }
      }
      counter.count = 2  // parity stays 0: no run, nothing cleaned up
      #expect(cleanups.values.isEmpty)
      counter.count = 3
      #expect(cleanups.values == [0])
      token.cancel()
      #expect(cleanups.values == [0, 1])
    }

    @Test func runsWhenItsScopeEnds() {
      let cleaned = Received<String>()
      let scope = TrackingScope()
      scope.run { onCleanup { cleaned.append("scope") } }
      #expect(cleaned.values.isEmpty)
      scope.cancel()
      scope.cancel()
      #expect(cleaned.values == ["scope"])
    }

    @Test func withNoOwnerItRunsAtOnce() {
      let cleaned = Received<String>()
      onCleanup { cleaned.append("now") }
      #expect(cleaned.values == ["now"])
    }

    @Test func aCancellationFromInsideTheBodyRunsTheCleanupAfterTheRun() {
      let meter = Meter()
      let log = Received<String>()
      let token = withContinuousTracking(options: .didSet, delivery: .immediate, firstRun: .immediate) { event in
        log.append("run")
        onCleanup { log.append("cleanup") }
        if meter.level > 0 {
          event.cancel()
          log.append("cancelled")
        }
      }
      meter.level = 1
      #expect(log.values == ["run", "cleanup", "run", "cancelled", "cleanup"])
      _ = token
    }
  }
}
