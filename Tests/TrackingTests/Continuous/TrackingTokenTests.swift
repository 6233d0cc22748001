import Foundation
import Testing
@_spi(Testing) import Tracking

extension ContinuousTrackingSuites {
  /// A token keeps its cancelled flag in its observation's state (one allocation per
  /// token); a token without an observation (observed/unobserved hooks) keeps its own.
  @Suite("Tracking tokens")
  struct TrackingTokenTests {
    @Test func aTokenIsCancelledByItsCancelAndCancellingAgainDoesNothing() {
      let meter = Meter()
      let seen = Received<Int>()
      let token = observe { seen.append(meter.level) }
      #expect(!token.isCancelled)
      token.cancel()
      #expect(token.isCancelled)
      token.cancel()
      #expect(token.isCancelled)
      meter.level = 1
      #expect(seen.values == [0])
      #expect(token.dependencies.isEmpty)
    }

    @Test func anObservationEndedByItsEventIsNotATokenCancellation() {
      let meter = Meter()
      let seen = Received<Int>()
      let token = withContinuousTracking(options: .didSet, delivery: .immediate, firstRun: .immediate) { event in
        seen.append(meter.level)
        if meter.level == 1 { event.cancel() }
      }
      meter.level = 1
      meter.level = 2
      #expect(seen.values == [0, 1])
      // `isCancelled` says whether the token's `cancel()` ran (by its user, or by its
      // release), as documented; the event ended the observation, not the token.
      #expect(!token.isCancelled)
      token.cancel()
      #expect(token.isCancelled)
    }

    @Test func aHooksTokenKeepsItsOwnFlagAndItsCancelRemovesTheHooks() {
      let meter = Meter()
      let log = Received<String>()
      let hooks = meter.onObservation(of: \.level) { log.append("observed") } unobserved: { log.append("unobserved") }
      #expect(!hooks.isCancelled)
      #expect(hooks.dependencies.isEmpty)
      #expect(hooks.lastEvent == nil)
      hooks.cancel()
      hooks.cancel()
      #expect(hooks.isCancelled)
      let reader = observe { _ = meter.level }
      reader.cancel()
      #expect(log.values.isEmpty)
    }

    @Test func cancellingOneTokenFromManyThreadsWhileItsPropertyChangesEndsIt() {
      for _ in 0..<50 {
        let meter = Meter()
        let runs = Received<Int>()
        let token = observe { runs.append(meter.level) }
        DispatchQueue.concurrentPerform(iterations: 8) { index in
          if index == 0 {
            for value in 1...100 { meter.level = value }
          } else {
            token.cancel()
          }
        }
        #expect(token.isCancelled)
        let before = runs.values.count
        meter.level = -1
        #expect(runs.values.count == before)
        #expect(!runs.values.contains(-1))
      }
    }
  }
}
