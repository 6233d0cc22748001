import Dispatch
import Testing

@testable import Tracking

/// A continuous observation refers to the objects it watches through their storages'
/// handles (not weak references, which would slow every retain of a storage): its
/// cancellation sweeps every object still alive, and a storage being deallocated
/// clears its handle first, so a sweep never touches it.
@Suite struct StorageHandleTests {
  final class Holder: @unchecked Sendable {
    var model: Counter?
    var token: TrackingToken?
  }

  @Test func cancellingSweepsEveryWatchedObjectStillAlive() {
    let first = Counter()
    let holder = Holder()
    holder.model = Counter()
    let last = Counter()
    let token = observe { _ = (first.count, holder.model?.count, last.count) }
    #expect(ObservedMaskTests.entryCount(of: first) == 1)
    holder.model = nil  // deallocated while watched: its handle is cleared
    token.cancel()
    #expect(ObservedMaskTests.entryCount(of: first) == 0)
    #expect(ObservedMaskTests.entryCount(of: last) == 0)
  }

  @Test func oneHandlePerStorageSharedByObservations() {
    let counter = Counter()
    let storage = ObservedMaskTests.storage(counter)
    let tokens = (0..<3).map { _ in observe { _ = counter.count } }
    #expect(storage.handle === storage.handle)
    tokens.forEach { $0.cancel() }
    #expect(ObservedMaskTests.entryCount(of: counter) == 0)
  }

  /// Cancellation on one thread while the watched object is released on another, in
  /// both orders: every run ends with nothing installed on the objects still alive,
  /// and (under ThreadSanitizer, in CI) without a race on a storage being freed.
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
