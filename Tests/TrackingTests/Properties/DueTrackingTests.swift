import PropertyBased
import Testing
@testable import Tracking

/// The bug the property tests found, reduced to deterministic reproductions.
///
/// **What happens.** A one-shot tracking that ends at its did-set (`[.didSet]`,
/// `[.willSet, .didSet]`) becomes *due* at the did-set of the first change it watches;
/// inside a transaction (or a batch another thread has open) its callback then waits
/// for the batch to drain. The registrar of the object that changed drops its entry for
/// the tracking at that did-set (`RegistrarStorage.didSet`, `.remove`), but the observer
/// stays `pending` until the callback runs (`TrackingObserver.notifyDidSet` is where it
/// finishes), so its entries on the *other* objects it read keep taking events
/// meanwhile:
/// - `[.willSet, .didSet]` hears a second `willSet` when a second object changes in the
///   same transaction, although it "runs its will-set callback in every willSet until
///   the first didSet" (`TrackingObserver.Kind`) and delivers "willSet, then didSet,
///   for the first change" (`withTracking(options:_:onChange:)`); a second change of
///   the *same* object does not do that.
/// - `.deinit` is delivered for another object deallocated in that window, but not for
///   the object whose change made it due.
/// - Across threads: another thread's change of another object delivers the did-set at
///   once on that thread, before the transaction that made it due has ended (so a
///   cancel made between the two no longer suppresses it); a change of the same object
///   does not.
///
/// **Rule the model holds** (and these tests expect): once its ending did-set has
/// happened, a tracking takes no other event; its callback runs when the batch drains,
/// unless it is cancelled first. A fix could give the observer's state word a third
/// value, *due*, set by the compare-and-swap at that did-set: will-set callbacks, deinit
/// callbacks and further did-set deliveries require *pending*; cancelling and the
/// drained delivery move *due* to *finished*.
///
/// The enabled tests beside them are the consistent halves (same object), which pass
/// and must keep passing.
@Suite("Known bug: events reach a tracking whose did-set waits in a batch")
struct PendingDidSetBugTests {
  static let reason: Comment = "Known runtime bug (see PendingDidSetBugTests): a tracking whose did-set waits in a batch still takes events through its other objects"

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
    // The runtime logs ["willSet", "willSet", "didSet"].
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
    // The runtime logs ["deinit", "didSet"].
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
    // The runtime logs ["didSet"]: delivered on thread 1, before the cancel.
    #expect(Self.crossThreadRun(otherIsFirst: false) == [])
  }

  @Test func anotherThreadsChangeOfTheSameObjectDoesNotDeliverADueDidSet() {
    #expect(Self.crossThreadRun(otherIsFirst: true) == [])
  }

  // MARK: The properties, without avoiding the bug

  @Test func theRuntimeLogsWhatTheModelLogsInEveryMode() async {
    await propertyCheck(count: ScriptPropertyTests.count, input: ScriptGenerator.scripts()) { script in
      ScriptPropertyTests.check(script)
    }
  }

  @Test func eachTrackingHearsWhatTheModelSaysInEveryModeOnSeveralThreads() async {
    await propertyCheck(count: ScriptPropertyTests.count * 3 / 10, input: ScriptGenerator.threadedScripts()) {
      script in
      ThreadedScriptPropertyTests.check(script)
    }
  }
}
