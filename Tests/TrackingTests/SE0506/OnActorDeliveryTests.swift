import Foundation
import Testing
@_spi(Testing) @testable import Tracking

/// The main-actor convenience of one-shot tracking (`delivery: .onActor`): callbacks
/// isolated to the caller's actor, delivered there after a change made elsewhere. The
/// rules: every event of one tracking is delivered, in order (a `didSet` never before
/// its `willSet`, a `deinit` in its place); a cancel at `willSet` (or through the
/// handle) still wins; a change made on the actor is delivered inside it.
///
/// The changes are made by other threads while the actor waits for them, so every
/// event has to wait for the actor, and the test then awaits what arrives (or the
/// release of the callback, after which nothing more can arrive).
@Suite("One-shot callbacks delivered on the caller's actor", .timeLimit(.minutes(1)))
struct OnActorDeliveryTests {
  @MainActor @Test func rule_theEventsOfOneTrackingArriveInOrder() async {
    let threads = 4
    for round in 1...100 {
      let counters = (0..<threads).map { _ in Counter() }
      let arrivals = Arrivals<(Int, String)>()
      for i in 0..<threads {
        let counter = counters[i]
        _ = withCancellableTracking(options: [.willSet, .didSet], delivery: .onActor) { _ = counter.count } onChange: {
          event in
          MainActor.preconditionIsolated()
          arrivals.add((i, "\(event.kind)"))
        }
      }
      onAnotherThread {
        DispatchQueue.concurrentPerform(iterations: threads) { counters[$0].count = round }
      }
      let events = await arrivals.first(2 * threads)
      for i in 0..<threads {
        #expect(events.filter { $0.0 == i }.map(\.1) == ["willSet", "didSet"], "round \(round), object \(i)")
      }
    }
  }

  /// One tracking over two objects: the first is deallocated, then the second changes.
  @MainActor @Test func rule_aDeinitKeepsItsPlaceAmongTheEvents() async {
    for round in 1...100 {
      let first = Locked<Counter?>(Counter())
      let second = Counter()
      let arrivals = Arrivals<String>()
      _ = withCancellableTracking(options: [.willSet, .didSet, .deinit], delivery: .onActor) {
        _ = first.withLock { $0! }.count
        _ = second.count
      } onChange: { event in
        arrivals.add("\(event.kind)")
      }
      onAnotherThread {
        first.withLock { $0 = nil }
        second.count = round
      }
      #expect(await arrivals.first(3) == ["deinit", "willSet", "didSet"], "round \(round)")
    }
  }

  @MainActor @Test func rule_cancellingAtWillSetSuppressesADidSetThatAlreadyHappened() async {
    let threads = 4
    let logs = (0..<threads).map { _ in EventLog() }
    let released = Arrivals<Int>()
    do {
      let counters = (0..<threads).map { _ in Counter() }
      for i in 0..<threads {
        let counter = counters[i]
        let log = logs[i]
        let signal = ReleaseSignal { released.add(i) }
        _ = withCancellableTracking(options: [.willSet, .didSet], delivery: .onActor) { _ = counter.count } onChange: {
          event in
          _ = signal
          log("\(event.kind)")
          if event.kind == .willSet { event.cancel() }
        }
      }
      // Each change completes, did-set included, while the main actor waits.
      onAnotherThread {
        DispatchQueue.concurrentPerform(iterations: threads) { counters[$0].count = 1 }
      }
    }
    // Every callback is released (so it can never run again) once its events are done.
    _ = await released.first(threads)
    for i in 0..<threads { #expect(logs[i].events == ["willSet"], "object \(i)") }
  }

  @MainActor @Test func rule_cancellingTheHandleDropsEventsWaitingForTheActor() async {
    let log = EventLog()
    let released = Arrivals<Int>()
    do {
      let counter = Counter()
      let signal = ReleaseSignal { released.add(0) }
      let tracking = withCancellableTracking(options: [.willSet, .didSet], delivery: .onActor) { _ = counter.count }
        onChange: { event in
          _ = signal
          log("\(event.kind)")
        }.tracking
      onAnotherThread { counter.count = 1 }
      #expect(tracking.isPending)  // its events wait for the main actor
      tracking.cancel()
      #expect(!tracking.isPending)
    }
    _ = await released.first(1)
    #expect(log.events.isEmpty)
  }

  @MainActor @Test func aChangeOnTheActorIsDeliveredInsideIt() {
    let counter = Counter()
    let log = EventLog()
    _ = withCancellableTracking(options: [.willSet, .didSet], delivery: .onActor) { _ = counter.count } onChange: {
      event in
      log("\(event.kind) stored=\(counter.count) value=\(event.value(of: \Counter.count) ?? -1)")
    }
    counter.count = 1
    log("write returned")
    #expect(log.events == ["willSet stored=0 value=0", "didSet stored=1 value=1", "write returned"])
  }

  @Test func rule_onAnActorOfItsOwn_theEventsArriveInOrderOnIt() async {
    let owner = DeliveryOwner()
    for round in 1...50 {
      let counter = Counter()
      let arrivals = Arrivals<String>()
      await owner.track(counter, into: arrivals)
      onAnotherThread { counter.count = round }
      #expect(await arrivals.first(2) == ["willSet", "didSet"], "round \(round)")
    }
  }
}

/// An actor whose trackings deliver their callbacks on it.
actor DeliveryOwner {
  func track(_ counter: Counter, into arrivals: Arrivals<String>) {
    _ = withCancellableTracking(options: [.willSet, .didSet], delivery: .onActor) { _ = counter.count } onChange: {
      event in
      self.preconditionIsolated()
      arrivals.add("\(event.kind)")
    }
  }
}
