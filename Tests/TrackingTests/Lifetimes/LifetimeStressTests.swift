import Foundation
import Testing
@_spi(Testing) import Tracking

extension LifetimeSuites {
  @Suite("Scopes under contention")
  struct LifetimeStressTests {
    /// Scopes cancelled on one thread while their observations run on others: once
    /// `cancel()` has returned and a run under way has ended, no run starts again, every
    /// cleanup ran exactly once, and nothing stays installed.
    @Test func scopesCancelledWhileTheirObservationsRunOnOtherThreads() async {
      let rounds = isRunningUnderThreadSanitizer ? 40 : 200
      for _ in 0..<rounds {
        // One model per writer: a model's storage is not synchronized, and each
        // observation reads one model, so its runs happen on that model's writer thread
        // (or here, before the writers start) while the scope is cancelled on a third.
        let gauges = [Gauge(), Gauge()]
        let scope = TrackingScope()
        let runs = Received<Int>()
        let cleanups = Received<Int>()
        scope.run {
          for index in 0..<4 {
            let gauge = gauges[index % 2]
            _ = observe {
              runs.append(gauge.level)
              onCleanup { cleanups.append(index) }
            }
          }
        }
        await withTaskGroup(of: Void.self) { group in
          for writer in 0..<2 {
            let gauge = gauges[writer]
            group.addTask {
              for value in 1...50 { gauge.level = value }
            }
          }
          group.addTask { scope.cancel() }
        }
        // After everything: one more write runs nothing.
        let before = runs.values.count
        for gauge in gauges { gauge.level = -1 }
        #expect(runs.values.count == before)
        // Each run registered one cleanup, ended by the next run or the cancellation.
        #expect(cleanups.values.count == runs.values.count)
        #expect(gauges.allSatisfy { $0.observerCount == 0 })
      }
    }

    /// Hooks of one property seen from several threads at once alternate and end
    /// balanced.
    @Test func hooksStayBalancedUnderConcurrentObservers() async {
      let feed = FakeFeed()
      let ticker = Ticker(feed: feed)
      let rounds = isRunningUnderThreadSanitizer ? 20 : 100
      await withTaskGroup(of: Void.self) { group in
        for _ in 0..<4 {
          group.addTask {
            for _ in 0..<rounds {
              let token = observe { _ = ticker.price }
              token.cancel()
            }
          }
        }
      }
      #expect(feed.liveSubscriptions == 0)
      #expect(feed.subscriptionsStarted >= 1)
    }
  }
}
