import Foundation
import Testing
@_spi(Testing) @testable import Tracking

/// SE-0506's one-shot form behaves the same wherever the tracking is set up: its
/// `onChange` is a `@Sendable` nonisolated closure, run synchronously on the thread
/// that makes the change, inside it. These trackings are set up on the main actor (and
/// on an actor of their own) and changed from other threads, which blocks the
/// setting-up actor until the change is done: every callback must have run by then.
@Suite("SE-0506: one-shot rules wherever the tracking is set up", .timeLimit(.minutes(1)))
struct SetUpAnywhereTests {
  @MainActor @Test func rule_setUpOnTheMainActor_eventsFireInsideTheChangeOnTheMutatingThread() {
    let counter = Counter()
    let log = EventLog()
    withTracking(options: [.willSet, .didSet]) { _ = counter.count } onChange: { event in
      log("\(event.kind) main=\(Thread.isMainThread) stored=\(counter.count)")
    }
    onAnotherThread {
      counter.count = 1
      log("write returned")
    }
    #expect(log.events == ["willSet main=false stored=0", "didSet main=false stored=1", "write returned"])
  }

  @MainActor @Test func rule_setUpOnTheMainActor_cancellingAtWillSetSuppressesTheDidSet() {
    let counter = Counter()
    let log = EventLog()
    withTracking(options: [.willSet, .didSet]) { _ = counter.count } onChange: { event in
      log("\(event.kind)")
      if event.kind == .willSet { event.cancel() }
    }
    onAnotherThread {
      counter.count = 1
      log("write returned")
    }
    #expect(log.events == ["willSet", "write returned"])
    counter.count = 2  // the tracking is over
    #expect(log.events == ["willSet", "write returned"])
  }

  @MainActor @Test func rule_setUpOnTheMainActor_deinitArrivesOnTheDeallocatingThread() {
    let log = EventLog()
    let holder = Locked<Counter?>(Counter())
    withTracking(options: [.didSet, .deinit]) { _ = holder.withLock { $0! }.count } onChange: { event in
      log("\(event.kind) main=\(Thread.isMainThread)")
    }
    onAnotherThread {
      holder.withLock { $0 = nil }
      log("released")
    }
    #expect(log.events == ["deinit main=false", "released"])
  }

  /// Several threads change several objects at once, each tracked by a tracking set up
  /// on the main actor; half of the callbacks cancel at `willSet`.
  @MainActor @Test func rule_setUpOnTheMainActor_severalThreadsChangingAtOnce() {
    let threads = 4
    for round in 1...25 {
      let counters = (0..<threads).map { _ in Counter() }
      let logs = (0..<threads).map { _ in EventLog() }
      for i in 0..<threads {
        let counter = counters[i]
        let log = logs[i]
        let cancels = i % 2 == 1
        withTracking(options: [.willSet, .didSet]) { _ = counter.count } onChange: { event in
          log("\(event.kind) main=\(Thread.isMainThread) stored=\(counter.count)")
          if cancels, event.kind == .willSet { event.cancel() }
        }
      }
      onAnotherThread {
        DispatchQueue.concurrentPerform(iterations: threads) { i in
          counters[i].count = round
          logs[i]("write returned")
        }
      }
      for i in 0..<threads {
        let expected =
          i % 2 == 1
          ? ["willSet main=false stored=0", "write returned"]
          : ["willSet main=false stored=0", "didSet main=false stored=\(round)", "write returned"]
        #expect(logs[i].events == expected, "round \(round), object \(i)")
      }
    }
  }

  @Test func rule_setUpOnAnActor_eventsFireInsideTheChangeOnTheMutatingThread() async {
    let owner = TrackingOwner()
    for round in 1...10 {
      let counter = Counter()
      let log = EventLog()
      await owner.track(counter, into: log, cancellingAtWillSet: round % 2 == 0)
      onAnotherThread {
        counter.count = round
        log("write returned")
      }
      let expected =
        round % 2 == 0
        ? ["willSet stored=0", "write returned"]
        : ["willSet stored=0", "didSet stored=\(round)", "write returned"]
      #expect(log.events == expected, "round \(round)")
    }
  }
}

/// An actor that sets up trackings in its own isolation.
actor TrackingOwner {
  func track(_ counter: Counter, into log: EventLog, cancellingAtWillSet: Bool) {
    withTracking(options: [.willSet, .didSet]) { _ = counter.count } onChange: { event in
      _ = self  // a closure that inherited the actor's isolation would be isolated to it now
      log("\(event.kind) stored=\(counter.count)")
      if cancellingAtWillSet, event.kind == .willSet { event.cancel() }
    }
  }
}
