import DerivedGraphScripts
import Foundation
import Testing
@_spi(Testing) @testable import Tracking

/// A derived graph used from several threads at once ends consistent: every value, and
/// the last run of every observer, agree with the inputs as the last writes left them.
///
/// The inputs are `LockedCell`s: a tracked property's storage is no more thread-safe
/// than a plain property's (as with Apple's `@Observable`), and these are written and
/// read on several threads.
@Suite("Derived graphs across threads", .timeLimit(.minutes(1)))
struct DerivedConcurrencyTests {
  /// Two threads write the two inputs of one graph (one in transactions), while a third
  /// makes derived values and observers that read it, reads them and drops them. Bounded:
  /// 2 000 writes per writer.
  @Test func threeThreadsLeaveEveryValueAndObserverConsistent() {
    let a = LockedCell()
    let x = LockedCell()
    let b = Derived { a.value * 2 }
    let c = Derived { x.value * 3 }
    let d = Derived { b.value + c.value }
    // Reads `a` only when `d` is even: its inputs change from run to run. The sum
    // makes each recomputation long enough for other threads to pull meanwhile.
    let e = Derived {
      let base = d.value % 2 == 0 ? d.value + a.value : d.value
      return (0..<200).reduce(base) { sum, step in sum &+ step } - 19_900
    }
    let lastSeen = Locked(0)
    let token = observe {
      let value = e.value
      lastSeen.withLock { $0 = value }
    }
    let rounds = 2_000
    DispatchQueue.concurrentPerform(iterations: 3) { worker in
      switch worker {
      case 0:
        for value in 1...rounds { a.value = value }
      case 1:
        for value in 1...rounds {
          withTransaction {
            x.value = -value
            x.value = value
          }
        }
      default:
        for offset in 0..<rounds / 10 {
          let f = Derived { e.value + offset }
          let seen = Locked(0)
          let g = observe {
            let value = f.value
            seen.withLock { $0 = value }
          }
          _ = f.value
          g.cancel()
        }
      }
    }
    let expectedD = rounds * 2 + rounds * 3
    let expectedE = expectedD % 2 == 0 ? expectedD + rounds : expectedD
    #expect(d.value == expectedD)
    #expect(e.value == expectedE)
    #expect(lastSeen.withLock { $0 } == expectedE)
    token.cancel()
  }

  /// Values that nobody observes retire at a change and pull again at a read. One thread
  /// writes, two read the graph's end, and a fourth observes it and stops, over and
  /// over. Bounded: 2 000 writes.
  @Test func readersAndAnObserverComingAndGoingSeeTheLastWrite() {
    let a = LockedCell()
    let b = Derived { a.value * 2 }
    let c = Derived { a.value * 3 }
    let d = Derived {
      (0..<200).reduce(b.value + c.value) { sum, step in sum &+ step } - 19_900
    }
    let e = Derived { d.value + 1 }
    let rounds = 2_000
    let writing = Locked(true)
    DispatchQueue.concurrentPerform(iterations: 4) { worker in
      switch worker {
      case 0:
        for value in 1...rounds { a.value = value }
        writing.withLock { $0 = false }
      case 1, 2:
        var previous = 0
        while writing.withLock({ $0 }) {
          // The writes only grow: a read never goes back.
          let value = e.value
          #expect(value >= previous)
          previous = value
        }
      default:
        while writing.withLock({ $0 }) {
          let token = observe { _ = d.value }
          token.cancel()
        }
      }
    }
    #expect(e.value == rounds * 5 + 1)
    let seen = Locked(0)
    let token = observe {
      let value = e.value
      seen.withLock { $0 = value }
    }
    a.value = rounds + 1
    #expect(seen.withLock { $0 } == (rounds + 1) * 5 + 1)
    token.cancel()
  }
}
