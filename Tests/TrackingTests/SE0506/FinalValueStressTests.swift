import DerivedGraphScripts
import Foundation
import Testing
@_spi(Testing) @testable import Tracking

/// Another thread writes 1…n as fast as it can while an observation follows the
/// property; once it stops, the observation's last value must be n. Every continuous
/// form, many trials each. Waits are bounded (a trial that never reaches n is counted as
/// a miss, not left hanging); nothing is timed.
@Suite("No lost final value under contention", .serialized, .timeLimit(.minutes(3)))
@UIActor
struct FinalValueStressTests {
  nonisolated static let trials = 40
  nonisolated static let writes = 2_000

  /// The latest value an observation delivered, and a wait for a given one.
  final class Follower: @unchecked Sendable {
    private let state = Locked<(last: Int, waiter: CheckedContinuation<Void, Never>?, target: Int)>((-1, nil, .max))

    func deliver(_ value: Int) {
      let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
        state.last = value
        guard value == state.target, let waiter = state.waiter else { return nil }
        state.waiter = nil
        return waiter
      }
      waiter?.resume()
    }

    var last: Int { state.withLock { $0.last } }

    /// Waits until `value` is delivered or `bound` passes; returns whether it was. The
    /// bound is generous: under ThreadSanitizer, beside the migration tests' compilers,
    /// a trial of 2 000 writes once went past 10 s.
    func reaches(_ value: Int, within bound: Duration = .seconds(60)) async -> Bool {
      let watchdog = Task {
        try? await Task.sleep(for: bound)
        // Taken under the lock, so a delivery at the same moment cannot resume it too.
        let waiter = self.state.withLock { state in
          defer { state.waiter = nil }
          return state.waiter
        }
        waiter?.resume()
      }
      defer { watchdog.cancel() }
      await withCheckedContinuation { continuation in
        let now = state.withLock { state -> Bool in
          if state.last == value { return true }
          state.target = value
          state.waiter = continuation
          return false
        }
        if now { continuation.resume() }
      }
      return last == value
    }
  }

  /// Runs `trials` trials of `follow` against a writer thread; returns the misses.
  func misses(_ follow: (LockedCell, Follower) -> AnyObject) async -> Int {
    var missed = 0
    for _ in 0..<Self.trials {
      let cell = LockedCell()
      let follower = Follower()
      let keepAlive = follow(cell, follower)
      let writer = Thread {
        for value in 1...Self.writes { cell.value = value }
      }
      writer.start()
      if await !follower.reaches(Self.writes) { missed += 1 }
      withExtendedLifetime(keepAlive) {}
    }
    return missed
  }

  @Test func observeRunsWhereTheChangeHappens() async {
    #expect(await misses { cell, follower in Self.nonisolatedObservation(cell, follower) } == 0)
  }

  /// An `observe` whose body is nonisolated: it runs on the writer's thread.
  nonisolated static func nonisolatedObservation(_ cell: LockedCell, _ follower: Follower) -> AnyObject {
    Tracking.observe { follower.deliver(cell.value) }
  }

  @Test func observeOnAnActor() async {
    #expect(await misses { cell, follower in Tracking.observe { follower.deliver(cell.value) } } == 0)
  }

  @Test func observeCoalescedOnAnActor() async {
    #expect(await misses { cell, follower in Tracking.observeCoalesced { follower.deliver(cell.value) } } == 0)
  }

  @Test func continuousTrackingWithWillSetOnly() async {
    #expect(
      await misses { cell, follower in
        withContinuousTracking(options: .willSet) { _ in follower.deliver(cell.value) }
      } == 0)
  }

  @Test func derivedValueObserved() async {
    #expect(
      await misses { cell, follower in
        let doubled = Derived { cell.value * 2 }
        let token = Tracking.observe { follower.deliver(doubled.value / 2) }
        return [doubled, token] as NSArray
      } == 0)
  }

  @Test func transactionalSequence() async {
    #expect(
      await misses { cell, follower in
        CancelsOnRelease(Task { for await value in TrackedValues({ cell.value }) { follower.deliver(value) } })
      } == 0)
  }

  @Test func valueStream() async {
    #expect(
      await misses { cell, follower in
        CancelsOnRelease(Task { for await value in cell.values(of: \.value) { follower.deliver(value) } })
      } == 0)
  }
}

/// Keeps a following task for one trial, and cancels it when the trial ends.
final class CancelsOnRelease {
  let task: Task<Void, Never>
  init(_ task: Task<Void, Never>) { self.task = task }
  deinit { task.cancel() }
}
