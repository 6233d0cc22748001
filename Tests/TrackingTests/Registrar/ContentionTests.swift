import Dispatch
import Foundation
import Testing
@_spi(Testing) import Tracking

/// Several threads tracking and mutating shared objects at once, for a bounded count.
/// Run under ThreadSanitizer too: `swift test --sanitize=thread --filter TrackingTests`.
@Suite("Contention")
struct ContentionTests {
  static let rounds = 2_000

  @Test func concurrentTrackAndMutateFireEachTrackingExactlyOnce() {
    let shared = Counter()
    let fired = EventLog()
    // A model's storage is not synchronized (nor is Apple's): the lock serializes the
    // value itself, while installing, matching and firing observers run concurrently.
    let storageLock = NSLock()
    DispatchQueue.concurrentPerform(iterations: 2) { worker in
      for round in 0..<Self.rounds {
        withTracking { storageLock.withLock { _ = shared.count } } onChange: { fired("\(worker)-\(round)") }
        storageLock.withLock { shared.count &+= 1 }
      }
    }
    // Each tracking was installed before its own thread's next write, so every one
    // fired, and the compare-and-swap let each fire once.
    let events = fired.events
    #expect(events.count == 2 * Self.rounds)
    #expect(Set(events).count == events.count)
  }

  @Test func concurrentTrackingsOnSeveralObjects() {
    let objects = (0..<4).map { _ in Counter() }
    let fired = EventLog()
    DispatchQueue.concurrentPerform(iterations: 4) { worker in
      for round in 0..<Self.rounds / 2 {
        let mine = objects[worker]
        let neighbour = objects[(worker + 1) % objects.count]
        withTracking { _ = mine.count; _ = neighbour.label } didSet: { _ in fired("\(worker)-\(round)") }
        mine.count &+= 1
      }
    }
    #expect(Set(fired.events).count == 4 * (Self.rounds / 2))
  }

  @Test func cancelRacingWithMutationRunsTheCallbackAtMostOnce() {
    let shared = Counter()
    let fired = EventLog()
    var tokens: [PendingTracking] = []
    for index in 0..<Self.rounds {
      tokens.append(withCancellableTracking { _ = shared.count } onChange: { fired("\(index)") }.tracking)
    }
    let sendableTokens = tokens
    DispatchQueue.concurrentPerform(iterations: 2) { worker in
      if worker == 0 {
        for token in sendableTokens { token.cancel() }
      } else {
        shared.count = 1
      }
    }
    let events = fired.events
    #expect(Set(events).count == events.count)
    #expect(sendableTokens.allSatisfy { !$0.isPending })
  }
}
