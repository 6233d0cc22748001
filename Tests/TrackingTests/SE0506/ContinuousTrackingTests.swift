import Foundation
import Testing
@_spi(Testing) @testable import Tracking

/// SE-0506's continuous rules, plus what we add, each test naming the rule.
extension ContinuousTrackingSuites {
  @Suite("SE-0506: continuous tracking")
  @UIActor
  struct ContinuousTrackingTests {
    @Test func rule_theFirstRunIsInitialAndLaterRunsGetTheLatestEvent() async {
      let image = ImageAdjustments()
      let kinds = Received<String>()
      let token = withContinuousTracking(options: .didSet) { event in
        kinds.append("\(event.kind) \(image.brightness)")
      }
      await untilRuns(kinds, count: 1)
      image.brightness = 1
      image.brightness = 2  // same burst: one run
      await untilRuns(kinds, count: 2)
      #expect(kinds.values == ["initial 0.0", "didSet 2.0"])
      token.cancel()
    }

    @Test func rule_eachRunIsTrackedAfresh() async {
      let image = ImageAdjustments()
      let seen = Received<Double>()
      let token = withContinuousTracking(options: .didSet, delivery: .immediate, firstRun: .immediate) { _ in
        seen.append(image.useContrast ? image.contrast : image.brightness)
      }
      image.contrast = 5  // not read yet: nothing
      image.useContrast = true
      image.brightness = 3  // no longer read: nothing
      image.contrast = 6
      #expect(seen.values == [0, 5, 6])
      token.cancel()
    }

    @Test func rule_runsHappenOnTheCallersActor() async {
      let image = ImageAdjustments()
      let onActor = Received<Bool>()
      let token = withContinuousTracking(options: .didSet) { _ in
        UIActor.shared.assertIsolated()
        onActor.append(true)
        _ = image.brightness
      }
      await untilRuns(onActor, count: 1)
      await Task.detached { await MainActor.run {} }.value
      image.brightness = 1
      await untilRuns(onActor, count: 2)
      token.cancel()
    }

    @Test func rule_cancellingTheTokenStopsRunsAndLeavesNoObserverInstalled() async {
      let image = ImageAdjustments()
      let runs = Received<Int>()
      let token = withContinuousTracking(options: .didSet, delivery: .immediate, firstRun: .immediate) { _ in
        runs.append(Int(image.brightness))
      }
      #expect(ObservedMaskTests.entryCount(of: image) == 1)
      token.cancel()
      #expect(ObservedMaskTests.entryCount(of: image) == 0)
      image.brightness = 4
      #expect(runs.values == [0])
      #expect(token.isCancelled)
    }

    @Test func rule_releasingTheTokenCancels() async {
      let image = ImageAdjustments()
      let runs = Received<Int>()
      do {
        let token = withContinuousTracking(options: .didSet, delivery: .immediate, firstRun: .immediate) { _ in
          runs.append(Int(image.brightness))
        }
        _ = token
      }
      image.brightness = 4
      #expect(runs.values == [0])
    }

    @Test func rule_cancelInsideApplyEndsTheObservation() async {
      let image = ImageAdjustments()
      let runs = Received<Int>()
      let token = withContinuousTracking(options: .didSet, delivery: .immediate, firstRun: .immediate) { event in
        runs.append(Int(image.brightness))
        if image.brightness >= 2 { event.cancel() }
      }
      image.brightness = 2
      image.brightness = 3
      #expect(runs.values == [0, 2])
      withExtendedLifetime(token) {}
    }

    @Test func rule_noRunAfterCancelEvenWithAChangePending() async {
      let image = ImageAdjustments()
      let runs = Received<Int>()
      let token = withContinuousTracking(options: .willSet) { _ in runs.append(Int(image.brightness)) }
      await untilRuns(runs, count: 1)
      image.brightness = 1  // schedules a run
      token.cancel()  // before it starts
      await Task.yield()
      await Task.yield()
      #expect(runs.values == [0])
    }

    @Test func beyondApple_theFirstRunCanBeSynchronous() {
      let image = ImageAdjustments()
      let runs = Received<String>()
      let token = withContinuousTracking(options: .didSet, firstRun: .immediate) { event in
        runs.append("\(event.kind)")
        _ = image.brightness
      }
      #expect(runs.values == ["initial"])
      token.cancel()
    }

    @Test func beyondApple_tokensAreHashableAndLiveInASet() {
      let image = ImageAdjustments()
      var tokens: Set<TrackingToken> = []
      let runs = Received<Int>()
      observe { runs.append(Int(image.brightness)) }.store(in: &tokens)
      observe { runs.append(Int(image.contrast)) }.store(in: &tokens)
      #expect(tokens.count == 2)
      image.brightness = 1
      tokens.removeAll()
      image.brightness = 2
      #expect(runs.values == [0, 0, 1])
    }

    @Test func rule_deinitEventsReachAContinuousTracking() {
      let kinds = Received<String>()
      var image: ImageAdjustments? = ImageAdjustments()
      let token = withContinuousTracking(options: [.didSet, .deinit], delivery: .immediate, firstRun: .immediate) {
        [weak image] event in
        kinds.append("\(event.kind)")
        _ = image?.brightness
      }
      image = nil
      #expect(kinds.values == ["initial", "deinit"])
      token.cancel()
    }

    /// Waits (bounded) until `received` holds `count` values.
    func untilRuns<T>(_ received: Received<T>, count: Int) async {
      for _ in 0..<10_000 where received.values.count < count { await Task.yield() }
    }
  }
}
