import Foundation
import Testing
@_spi(Testing) @testable import Tracking

@Suite("Transactions")
struct TransactionTests {
  @Test func didSetObserversHearOfATransactionOnceAtTheEnd() {
    let counter = Counter()
    let runs = Received<String>()
    let token = observe { runs.append("\(counter.count) \(counter.label)") }
    withTransaction {
      counter.count = 1
      counter.label = "a"
      counter.count = 2
      #expect(runs.values == ["0 counter"])  // nothing yet
    }
    #expect(runs.values == ["0 counter", "2 a"])
    token.cancel()
  }

  @Test func oneShotWillSetCallbacksKeepApplesTiming() {
    let counter = Counter()
    let log = EventLog()
    withTracking { _ = counter.count } onChange: { log("willSet at \(counter.count)") }
    withTracking { _ = counter.count } didSet: { _ in log("didSet at \(counter.count)") }
    withTransaction {
      counter.count = 1
      log("after first write")
      counter.count = 2
    }
    #expect(log.events == ["willSet at 0", "after first write", "didSet at 2"])
  }

  @Test func nestedTransactionsJoinTheOutermost() {
    let counter = Counter()
    let runs = Received<Int>()
    let token = observe { runs.append(counter.count) }
    withTransaction {
      counter.count = 1
      withTransaction { counter.count = 2 }
      #expect(runs.values == [0])
      counter.count = 3
    }
    #expect(runs.values == [0, 3])
    token.cancel()
  }

  @Test func aThrowingBodyStillDeliversAndRethrows() {
    struct Stop: Error {}
    let counter = Counter()
    let runs = Received<Int>()
    let token = observe { runs.append(counter.count) }
    #expect(throws: Stop.self) {
      try withTransaction { () throws(Stop) in
        counter.count = 5
        throw Stop()
      }
    }
    #expect(counter.count == 5)  // nothing is rolled back
    #expect(runs.values == [0, 5])
    token.cancel()
  }

  @Test func writesOnOtherThreadsAreNotPartOfIt() {
    let counter = Counter()
    let other = Counter()
    let runs = Received<String>()
    let token = observe { runs.append("other=\(other.count)") }
    withTransaction {
      counter.count = 1
      onAnotherThread { other.count = 7 }  // delivered on that thread, at once
      #expect(runs.values == ["other=0", "other=7"])
    }
    token.cancel()
  }

  @Test func callbacksThatWriteAreDeliveredBeforeTheTransactionReturns() {
    let counter = Counter()
    let runs = Received<String>()
    let doubler = observe { if counter.count == 1 { counter.label = "one" } }
    let token = observe { runs.append(counter.label) }
    withTransaction { counter.count = 1 }
    #expect(runs.values == ["counter", "one"])
    token.cancel()
    doubler.cancel()
  }
}
