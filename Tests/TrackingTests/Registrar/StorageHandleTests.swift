import Dispatch
import Testing

@testable import Tracking

/// What a continuous observation keeps of the objects it watches: its links to their
/// properties' sources, which stay valid when an object is deallocated (its storage
/// detaches them first). A storage's handle (what hooks keep of it) is made once.
@Suite struct StorageHandleTests {
  final class Holder: @unchecked Sendable {
    var model: Counter?
    var token: TrackingToken?
  }

  @Test func cancellingLeavesEveryWatchedObjectStillAlive() {
    let first = Counter()
    let holder = Holder()
    holder.model = Counter()
    let last = Counter()
    let token = observe { _ = (first.count, holder.model?.count, last.count) }
    #expect(ObservedMaskTests.entryCount(of: first) == 1)
    holder.model = nil  // deallocated while watched: its sources are detached
    token.cancel()
    #expect(ObservedMaskTests.entryCount(of: first) == 0)
    #expect(ObservedMaskTests.entryCount(of: last) == 0)
  }

  @Test func oneHandlePerStorage() {
    let counter = Counter()
    let storage = ObservedMaskTests.storage(counter)
    let tokens = (0..<3).map { _ in observe { _ = counter.count } }
    #expect(storage.handle === storage.handle)
    #expect(ObservedMaskTests.entryCount(of: counter) == 3)
    tokens.forEach { $0.cancel() }
    #expect(ObservedMaskTests.entryCount(of: counter) == 0)
  }

  /// Cancellation on one thread while the watched object is released on another, in
  /// both orders: every run ends with nothing linked to the objects still alive, and
  /// (under ThreadSanitizer, in CI) without a race on a storage being freed.
  @Test func cancellingWhileTheObjectIsDeallocated() {
    let rounds = 2_000
    let witness = Counter()
    for _ in 0..<rounds {
      let holder = Holder()
      holder.model = Counter()
      holder.token = observe { _ = (witness.count, holder.model?.count) }
      let token = holder.token!
      DispatchQueue.concurrentPerform(iterations: 2) { side in
        if side == 0 { holder.model = nil } else { token.cancel() }
      }
      #expect(ObservedMaskTests.entryCount(of: witness) == 0)
    }
  }
}
