import Dispatch
import Foundation
import Testing

@testable import Tracking

/// How an object holds the observers installed on it: one observer alone (no array),
/// or entries (see `RegistrarStorage.Observers`). Whichever it is, every tracking
/// fires as before: these tests check both the representation and the behaviour.
@Suite struct InstalledObserversTests {
  private static func storage(_ object: AnyObject) -> RegistrarStorage { ObservedMaskTests.storage(object) }

  @Test func aScopeOverSeveralObjectsLeavesEachHoldingTheObserverAlone() {
    let rows = (0..<5).map { _ in Counter() }
    let fired = Counter()
    withTracking { _ = rows.map(\.count) } onChange: { fired.count += 1 }
    for row in rows {
      #expect(Self.storage(row).holdsOneObserverAlone)
      #expect(Self.storage(row).observes(0))
      #expect(!Self.storage(row).observes(1))
    }
    rows[3].label = "not read"
    #expect(fired.count == 0)
    rows[3].count = 1
    rows[4].count = 1
    #expect(fired.count == 1)
    #expect(Self.storage(rows[3]).entryCount == 0)
  }

  @Test func otherPropertiesOfAnotherObjectGetAnEntry() {
    let counter = Counter()
    let pair = Pair(1, 2)
    let fired = Counter()
    withTracking {
      _ = counter.count
      _ = pair.first + pair.second
    } onChange: { fired.count += 1 }
    #expect(Self.storage(counter).holdsOneObserverAlone)
    #expect(!Self.storage(pair).holdsOneObserverAlone)
    #expect(Self.storage(pair).entryCount == 1)
    pair.second = 5
    #expect(fired.count == 1)
    counter.count = 1
    #expect(fired.count == 1)
  }

  @Test func aSecondPendingObserverMovesBothIntoEntries() {
    let counter = Counter()
    let fired = Counter()
    withTracking { _ = counter.count } onChange: { fired.count += 1 }
    withTracking { _ = counter.label } onChange: { fired.label += "l" }
    #expect(!Self.storage(counter).holdsOneObserverAlone)
    #expect(Self.storage(counter).entryCount == 2)
    counter.count = 1
    #expect(fired.count == 1)
    #expect(fired.label == "counter")
    counter.label = "changed"
    #expect(fired.label == "counterl")
    #expect(Self.storage(counter).entryCount == 0)
  }

  @Test func aFinishedObserverIsReplacedInPlace() {
    let counter = Counter()
    let fired = Counter()
    for round in 1...3 {
      withTracking { _ = counter.count } onChange: { fired.count += 1 }
      #expect(Self.storage(counter).holdsOneObserverAlone)
      counter.count = round
      #expect(fired.count == round)
      #expect(Self.storage(counter).entryCount == 0)
    }
    // Cancelled rather than fired: the next observer takes its place too.
    let (_, tracking) = withCancellableTracking { _ = counter.count } onChange: { fired.count += 100 }
    tracking.cancel()
    withTracking { _ = counter.count } onChange: { fired.count += 1 }
    #expect(Self.storage(counter).holdsOneObserverAlone)
    #expect(Self.storage(counter).entryCount == 1)
    counter.count = 10
    #expect(fired.count == 4)
  }

  @Test func propertiesNumberedFrom32AreEntries() {
    let wide = WideModel()
    let fired = Counter()
    withTracking { _ = wide.p33 } onChange: { fired.count += 1 }
    #expect(!Self.storage(wide).holdsOneObserverAlone)
    #expect(Self.storage(wide).entryCount == 1)
    wide.p0 = 1
    #expect(fired.count == 0)
    wide.p33 = 1
    #expect(fired.count == 1)

    // The object keeps its (now empty) array of entries for later observers.
    withTracking { _ = wide.p31 } onChange: { fired.count += 1 }
    #expect(!Self.storage(wide).holdsOneObserverAlone)
    #expect(Self.storage(wide).entryCount == 1)
    wide.p31 = 1
    #expect(fired.count == 2)

    // Property 30 is the highest below 63 that an observer alone can watch (its shared
    // bits also hold 63, a store's root: see `StateObservation.rootID`).
    let other = WideModel()
    withTracking { _ = other.p30 } onChange: { fired.count += 1 }
    #expect(Self.storage(other).holdsOneObserverAlone)
    other.p29 = 1
    #expect(fired.count == 2)
    other.p30 = 1
    #expect(fired.count == 3)
  }

  /// A continuous observation installs no observer at all: its runs link to the
  /// property's source, and a run that reads the same property keeps its one link.
  @Test func aContinuousObservationKeepsItsOneLinkAcrossRuns() {
    let counter = Counter()
    let runs = Counter()
    let token = observe {
      _ = counter.count
      runs.count += 1
    }
    for value in 1...5 {
      counter.count = value
      #expect(Self.storage(counter).entryCount == 0)
      #expect(Self.storage(counter).nodeReaders().count == 1)
    }
    #expect(runs.count == 6)
    token.cancel()
    #expect(Self.storage(counter).nodeReaders().isEmpty)
  }

  /// Four threads each track the same property of eight shared rows, then write one
  /// of them: rows move between holding one observer alone, entries for several, and
  /// a finished observer replaced in place, while others fire. Each tracking was
  /// installed before its own thread's write to a row it read, so each fires once.
  @Test func sharedRowsUnderContentionFireEachTrackingOnce() {
    let rows = (0..<8).map { _ in Counter() }
    let fired = EventLog()
    // The rows' values are not synchronized (nor are Apple's): the lock serializes the
    // values, while installing, scanning and firing observers run concurrently.
    let values = NSLock()
    let rounds = 1_000
    DispatchQueue.concurrentPerform(iterations: 4) { worker in
      for round in 0..<rounds {
        withTracking { values.withLock { _ = rows.map(\.count) } } onChange: { fired("\(worker)-\(round)") }
        values.withLock { rows[(worker + round) % rows.count].count &+= 1 }
      }
    }
    let events = fired.events
    #expect(events.count == 4 * rounds)
    #expect(Set(events).count == events.count)
    for row in rows {
      // All fired; finished ones wait for the row's next write or install to be swept,
      // and an install sweeps before growing past 8 (never more than 4 are pending).
      #expect(!Self.storage(row).hasPendingObservers)
      #expect(Self.storage(row).entryCount <= 8)
    }
  }

  @Test func anObjectHoldingItsObserverAloneStillReportsItsDeinit() {
    var counter: Counter? = Counter()
    let kinds = Received<String>()
    withTracking(options: [.willSet, .deinit]) { _ = counter!.count } onChange: { kinds.append("\($0.kind)") }
    #expect(Self.storage(counter!).holdsOneObserverAlone)
    counter = nil
    #expect(kinds.values == ["deinit"])
  }
}

@Trackable final class WideModel: @unchecked Sendable {
  var p0 = 0
  var p1 = 0
  var p2 = 0
  var p3 = 0
  var p4 = 0
  var p5 = 0
  var p6 = 0
  var p7 = 0
  var p8 = 0
  var p9 = 0
  var p10 = 0
  var p11 = 0
  var p12 = 0
  var p13 = 0
  var p14 = 0
  var p15 = 0
  var p16 = 0
  var p17 = 0
  var p18 = 0
  var p19 = 0
  var p20 = 0
  var p21 = 0
  var p22 = 0
  var p23 = 0
  var p24 = 0
  var p25 = 0
  var p26 = 0
  var p27 = 0
  var p28 = 0
  var p29 = 0
  var p30 = 0
  var p31 = 0
  var p32 = 0
  var p33 = 0
}

@Suite("Many observations of one object")
struct ManyObservationsTests {
  /// Cancelling n observations of one object one by one takes each out at once: its
  /// link to the property's source leaves a doubly linked list, so nothing is scanned
  /// and nothing waits for a later sweep. (When each one was an observer in the
  /// object's list, 10 000 row observations of one list took 2.35 × 10⁹ instructions
  /// to cancel, until sweeps were batched.)
  @Test func cancellingManyObservationsTakesEachOutAtOnce() {
    let scene = Scene()
    let runs = Received<Int>()  // not tracked: the runs do not read it
    let tokens = (0..<3_000).map { index in
      observe {
        _ = scene.count
        runs.append(index)
      }
    }
    #expect(scene.observerCount == 3_000)
    for token in tokens[..<1_000] { token.cancel() }
    #expect(scene.observerCount == 2_000)
    scene.count += 1  // reaches the 2 000 left, and only them, in the order they read it
    #expect(Array(runs.values.suffix(2_001)) == [2_999] + Array(1_000..<3_000))
    for token in tokens[1_000..<2_999] { token.cancel() }
    #expect(scene.observerCount == 1)
    tokens[2_999].cancel()
    #expect(scene.observerCount == 0)
  }
}
