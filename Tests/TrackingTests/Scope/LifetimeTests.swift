import Testing
@_spi(Testing) import Tracking

/// Holds something weakly, to see when it is freed.
final class Witness: @unchecked Sendable {}

@Suite("Lifetimes: no leaks, no cycles")
struct LifetimeTests {
  @Test func pendingTrackingDoesNotKeepTheObjectAlive() {
    weak var weakCounter: Counter?
    do {
      let counter = Counter()
      weakCounter = counter
      withTracking { _ = counter.count } onChange: {}
    }
    #expect(weakCounter == nil)
  }

  @Test func callbackIsReleasedAfterItFires() {
    let counter = Counter()
    weak var weakWitness: Witness?
    do {
      let witness = Witness()
      weakWitness = witness
      withTracking { _ = counter.count } onChange: { _ = witness }
    }
    #expect(weakWitness != nil)  // pending: the callback still holds it
    counter.count = 1
    #expect(weakWitness == nil)
  }

  @Test func callbackIsReleasedOnCancel() {
    let counter = Counter()
    weak var weakWitness: Witness?
    let token: PendingTracking
    do {
      let witness = Witness()
      weakWitness = witness
      token = withCancellableTracking { _ = counter.count } onChange: { _ = witness }.tracking
    }
    #expect(weakWitness != nil)
    token.cancel()
    #expect(weakWitness == nil)
  }

  @Test func firedObserverIsReleasedFromEveryObject() {
    let first = Counter()
    let second = Counter()
    weak var weakWitness: Witness?
    do {
      let witness = Witness()
      weakWitness = witness
      withTracking { _ = first.count; _ = second.count } didSet: { _ in _ = witness }
    }
    first.count = 1  // fires through `first`; `second` still lists the finished observer
    #expect(weakWitness == nil)
    second.count = 1  // sweeps it
    #expect(Self.registrarEntries(second) == 0)
  }

  @Test func objectsAreFreedAfterFiringAndAfterCancel() {
    weak var fired: Counter?
    weak var cancelled: Counter?
    do {
      let a = Counter()
      let b = Counter()
      fired = a
      cancelled = b
      withTracking { _ = a.count } onChange: {}
      a.count = 1
      withCancellableTracking { _ = b.count } onChange: {}.tracking.cancel()
    }
    #expect(fired == nil)
    #expect(cancelled == nil)
  }

  @Test func cancelledObserversDoNotAccumulate() {
    let counter = Counter()
    for _ in 0..<10_000 {
      withCancellableTracking { _ = counter.count } onChange: {}.tracking.cancel()
    }
    // Sweeps keep the list within twice the pending count (here: none pending).
    #expect(Self.registrarEntries(counter) <= 16)
  }

  @Test func pendingObserversAreAllKeptUntilTheyFire() {
    let counter = Counter()
    let log = EventLog()
    for index in 0..<100 {
      withTracking { _ = counter.count } onChange: { log("\(index)") }
    }
    counter.count = 1
    #expect(log.events == (0..<100).map(String.init))
    #expect(Self.registrarEntries(counter) == 0)
  }

  /// Reads the registrar's observer count through the public introspection API.
  static func registrarEntries(_ counter: Counter) -> Int {
    Mirror(reflecting: counter).children
      .compactMap { $0.value as? TrackingRegistrar }
      .first?.installedObserverCount ?? -1
  }
}
