import Foundation
import Testing
@_spi(Testing) @testable import Tracking

/// True the first time it is asked, false afterwards.
final class FirstTime: Sendable {
  private let first = Locked(true)
  func take() -> Bool {
    first.withLock { first in
      defer { first = false }
      return first
    }
  }
}

/// Runs `write` on another thread and waits for it: a change that another thread makes
/// at a chosen point of the calling code (no timing involved).
func onAnotherThread(_ write: @escaping @Sendable () -> Void) {
  let done = DispatchSemaphore(value: 0)
  Thread {
    write()
    done.signal()
  }.start()
  done.wait()
}

@Suite("No lost changes", .timeLimit(.minutes(1)))
struct NoLostChangesTests {
  @Test func aChangeByAnotherThreadWhileApplyReadsFiresAtInstall() {
    let counter = Counter()
    let log = EventLog()
    withTracking {
      _ = counter.count
      onAnotherThread { counter.count = 1 }  // after the read, before the install
    } onChange: {
      log("fired")
    }
    #expect(log.events == ["fired"])
  }

  @Test func aChangeByTheSameThreadInsideApplyDoesNotFire() {
    let counter = Counter()
    let log = EventLog()
    withTracking {
      _ = counter.count
      counter.count = 1
    } onChange: {
      log("fired")
    }
    #expect(log.events.isEmpty)
    counter.count = 2
    #expect(log.events == ["fired"])
  }

  @Test func aChangeDetectedAtInstallHasNoPropertyButMatchesConservatively() {
    let counter = Counter()
    let seen = Locked<TrackingEvent?>(nil)
    withTracking(options: .didSet) {
      _ = counter.count
      onAnotherThread { counter.count = 1 }
    } onChange: { event in
      seen.withLock { $0 = event }
    }
    let event = seen.withLock { $0 }
    #expect(event?.kind == .didSet)
    #expect(event?.propertyName == nil)
    #expect(event?.matches(\Counter.count) == true)
  }

  @Test func aNestedScopesOwnWritesDoNotFireTheOuterOne() {
    let counter = Counter()
    let log = EventLog()
    withTracking {
      _ = counter.count
      withTracking {
        _ = counter.label
        counter.count = 5
      } onChange: {
        log("inner")
      }
    } onChange: {
      log("outer")
    }
    #expect(log.events.isEmpty)
  }

  @Test func aContinuousRunNoticesAChangeMadeWhileItReads() {
    let counter = Counter()
    let seen = Received<Int>()
    let once = FirstTime()
    let token = observe {
      seen.append(counter.count)
      if once.take() {
        onAnotherThread { counter.count = 7 }
      }
    }
    #expect(seen.values == [0, 7])
    token.cancel()
  }

  @Test func aSequenceRoundNoticesAChangeMadeWhileItReads() async {
    let counter = Counter()
    let once = FirstTime()
    var iterator = TrackedValues { () -> Int in
      let value = counter.count
      if once.take() {
        onAnotherThread { counter.count = 9 }
      }
      return value
    }.makeAsyncIterator()
    #expect(await iterator.next() == 0)
    #expect(await iterator.next() == 9)
  }
}
