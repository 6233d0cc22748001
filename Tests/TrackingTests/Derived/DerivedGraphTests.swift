import Foundation
import Testing
@_spi(Testing) @testable import Tracking

/// One change, one run: derived graphs recompute each value at most once per write, and
/// run each observer downstream at most once, after the graph is consistent.
@Suite("Derived graphs: one change, one run")
struct DerivedGraphTests {
  @Trackable final class Source: @unchecked Sendable {
    var a = 1
    var flag = true
    var inputs: [Int] = []
  }

  /// Counts an observer's runs and checks each value it sees.
  final class Effect: @unchecked Sendable {
    private let runs = Locked<[Int]>([])
    var values: [Int] { runs.withLock { $0 } }
    func record(_ value: Int) { runs.withLock { $0.append(value) } }
  }

  @Test func aDiamondRecomputesEachValueOnceAndRunsItsObserverOnce() {
    let s = Source()
    let b = Derived { s.a * 2 }
    let c = Derived { s.a * 3 }
    let d = Derived { b.value + c.value }
    let effect = Effect()
    let token = observe { effect.record(d.value) }
    for write in 2...5 {
      let before = (b.recomputeCount, c.recomputeCount, d.recomputeCount)
      s.a = write
      #expect(b.recomputeCount - before.0 == 1)
      #expect(c.recomputeCount - before.1 == 1)
      #expect(d.recomputeCount - before.2 == 1)
    }
    #expect(effect.values == [5, 10, 15, 20, 25])
    token.cancel()
  }

  @Test func aChainOfTenRecomputesEachLinkOncePerWrite() {
    let s = Source()
    var chain: [Derived<Int>] = [Derived { s.a }]
    for _ in 1..<10 {
      let previous = chain.last!
      chain.append(Derived { previous.value + 1 })
    }
    let last = chain.last!
    let effect = Effect()
    let token = observe { effect.record(last.value) }
    let before = chain.map(\.recomputeCount)
    s.a = 100
    #expect(zip(chain, before).allSatisfy { $0.recomputeCount - $1 == 1 })
    #expect(effect.values == [10, 109])
    token.cancel()
  }

  @Test func aWideFanInOfAHundredRunsItsObserverOncePerWrite() {
    let sources = (0..<100).map { _ in Source() }
    let parts = sources.map { source in Derived { source.a } }
    let total = Derived { parts.reduce(0) { $0 + $1.value } }
    let effect = Effect()
    let token = observe { effect.record(total.value) }
    withTransaction {
      for source in sources { source.a = 2 }
    }
    #expect(effect.values == [100, 200])
    #expect(total.recomputeCount == 2)
    sources[7].a = 3
    #expect(effect.values == [100, 200, 201])
    #expect(total.recomputeCount == 3)
    token.cancel()
  }

  @Test func aGraphWhoseShapeChangesFollowsItsNewInputsOnly() {
    let s = Source()
    let left = Derived { s.a * 10 }
    let right = Derived { s.a * 100 }
    let chosen = Derived { s.flag ? left.value : right.value }
    let effect = Effect()
    let token = observe { effect.record(chosen.value) }
    s.a = 2  // through `left`
    s.flag = false  // now through `right`
    let rightBefore = right.recomputeCount
    s.a = 3
    #expect(right.recomputeCount - rightBefore == 1)
    #expect(effect.values == [10, 20, 200, 300])
    token.cancel()
  }

  @Test func aTransactionIsOneChangeForTheWholeGraph() {
    let s = Source()
    let b = Derived { s.a * 2 }
    let c = Derived { s.flag ? s.a * 3 : 0 }
    let d = Derived { b.value + c.value }
    let effect = Effect()
    let token = observe { effect.record(d.value) }
    withTransaction {
      s.a = 2
      s.flag = false
      s.a = 3
    }
    #expect(effect.values == [5, 6])
    #expect(d.recomputeCount == 2)
    token.cancel()
  }

  /// A write that only derived values read marks them all at once: their observers
  /// still run once each, in the order the values first read the property, inside a
  /// transaction or not; a cancelled observation, and a derived value made and
  /// dropped between two writes, leave the other observers' runs as they were.
  @Test func derivedValuesReadingOnePropertyRunTheirObserversInTheOrderTheyReadIt() {
    let s = Source()
    let log = Effect()
    let values = (1...3).map { factor in Derived { s.a * factor } }
    let tokens = values.map { value in observe { log.record(value.value) } }
    #expect(log.values == [1, 2, 3])
    s.a = 2
    #expect(log.values == [1, 2, 3, 2, 4, 6])
    withTransaction { s.a = 3 }
    #expect(log.values == [1, 2, 3, 2, 4, 6, 3, 6, 9])
    // The second observation ends (its value, still held, retires at the next write),
    // and a value made, read once and dropped (which cancels its observer on `s`) is
    // not reached.
    tokens[1].cancel()
    do {
      let middle = Derived { s.a * 100 }
      observe { _ = middle.value }.cancel()
    }
    s.a = 4
    #expect(log.values == [1, 2, 3, 2, 4, 6, 3, 6, 9, 4, 12])
    tokens.forEach { $0.cancel() }
  }

  /// With a reaction that reads the property itself among the derived values, the
  /// change reaches each in the order they read it.
  @Test func aReactionReadingThePropertyItselfKeepsItsPlaceAmongDerivedValues() {
    let s = Source()
    let log = Effect()
    let first = Derived { s.a * 10 }
    let last = Derived { s.a * 30 }
    let tokens = [
      observe { log.record(first.value) },
      observe { log.record(s.a * 20) },
      observe { log.record(last.value) },
    ]
    s.a = 2
    #expect(log.values == [10, 20, 30, 20, 40, 60])
    tokens.forEach { $0.cancel() }
  }

  @Test func oneShotDidSetTrackingsAndSequencesDownstreamRunOnce() async {
    let s = Source()
    let b = Derived { s.a * 2 }
    let c = Derived { s.a * 3 }
    let d = Derived { b.value + c.value }
    let oneShot = Effect()
    withTracking { _ = d.value } didSet: { _ in oneShot.record(d.value) }
    var values = TrackedValues { d.value }.makeAsyncIterator()
    #expect(await values.next() == 5)
    s.a = 2
    #expect(oneShot.values == [10])
    #expect(await values.next() == 10)
  }

  @Test func writesFromAnotherThreadAreGlitchFreeAndNotLost() {
    let s = Source()
    let b = Derived { s.a * 2 }
    let c = Derived { s.a * 3 }
    let d = Derived { b.value + c.value }
    let effect = Effect()
    let token = observe { effect.record(d.value) }
    onAnotherThread { for value in 2...50 { s.a = value } }
    #expect(effect.values.allSatisfy { $0 % 5 == 0 })  // never a mix of old and new
    #expect(effect.values.last == 250)
    token.cancel()
  }
}
