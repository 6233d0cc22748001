import Testing
@testable import Tracking

/// A bug the property tests found, reduced to deterministic reproductions (fixed: the
/// observer's *due* state, see `TrackingObserver`).
///
/// A one-shot tracking that ends at its did-set (`[.didSet]`, `[.willSet, .didSet]`)
/// becomes due at the did-set of the first change it watches; inside a transaction (or
/// a batch another thread has open) its callback waits for the batch to drain. Before
/// the fix, its entries on the *other* objects it read kept taking events meanwhile: a
/// second `willSet` when a second object changed in the same transaction, a `deinit`
/// of another object, and, across threads, another thread's change of another object
/// delivered the did-set at once on that thread (so a cancel made before the
/// transaction ended no longer suppressed it).
///
/// **Rule** (the reference model's too): once its ending did-set has happened, a
/// tracking takes no other event; its callback runs when the batch drains, unless it
/// is cancelled first.
@Suite("Regression: a tracking whose did-set waits in a batch takes no other event")
struct DueTrackingTests {
  @Test func willSetAndDidSetHearOneWillSetWhenTwoObjectsChangeInATransaction() {
    let first = Counter()
    let second = Counter()
    let log = EventLog()
    withTracking(options: [.willSet, .didSet]) {
      _ = first.count
      _ = second.count
    } onChange: { log("\($0.kind)") }
    withTransaction {
      first.count = 1
      second.count = 1
    }
    #expect(log.events == ["willSet", "didSet"])
  }

  @Test func willSetAndDidSetHearOneWillSetWhenOneObjectChangesTwiceInATransaction() {
    let counter = Counter()
    let log = EventLog()
    withTracking(options: [.willSet, .didSet]) {
      _ = counter.count
      _ = counter.label
    } onChange: { log("\($0.kind)") }
    withTransaction {
      counter.count = 1
      counter.label = "changed"
    }
    #expect(log.events == ["willSet", "didSet"])
  }

  @Test func aDueTrackingHearsNoDeinitOfAnotherObject() {
    let first = Counter()
    var second: Counter? = Counter()
    let log = EventLog()
    withTracking(options: [.didSet, .deinit]) {
      _ = first.count
      _ = second!.count
    } onChange: { log("\($0.kind)") }
    withTransaction {
      first.count = 1
      second = nil
    }
    #expect(log.events == ["didSet"])
  }

  @Test func aDueTrackingHearsNoDeinitOfTheObjectThatMadeItDue() {
    var first: Counter? = Counter()
    let second = Counter()
    let log = EventLog()
    withTracking(options: [.didSet, .deinit]) {
      _ = first!.count
      _ = second.count
    } onChange: { log("\($0.kind)") }
    withTransaction {
      first!.count = 1
      first = nil
    }
    #expect(log.events == ["didSet"])
  }

  /// Thread 0 changes `first` in a transaction and hands the turn to thread 1, which
  /// changes `other` and cancels the tracking; thread 0 then ends the transaction.
  static func crossThreadRun(otherIsFirst: Bool) -> [String] {
    let first = Counter()
    let second = Counter()
    let other = otherIsFirst ? first : second
    let log = EventLog()
    let tracking = withCancellableTracking(options: .didSet) {
      _ = first.count
      _ = second.count
    } onChange: { log("\($0.kind)") }.tracking
    let scheduler = TurnScheduler(threads: 2, schedule: [0, 1, 0])
    scheduler.run([
      { pause in
        withTransaction {
          first.count = 1
          pause()
        }
      },
      { _ in
        other.count = 2
        tracking.cancel()
      },
    ])
    #expect(!scheduler.timedOut)
    return log.events
  }

  @Test func anotherThreadsChangeOfAnotherObjectDoesNotDeliverADueDidSet() {
    #expect(Self.crossThreadRun(otherIsFirst: false) == [])
  }

  @Test func anotherThreadsChangeOfTheSameObjectDoesNotDeliverADueDidSet() {
    #expect(Self.crossThreadRun(otherIsFirst: true) == [])
  }
}
