import Foundation
import Testing
import Tracking

/// A run's own writes: a change that a run makes to what it read does not run it again
/// (the own-writes rule), and it must not cut the run off from the changes that follow.
/// A write that reaches the run through a derived value leaves that value stale, and a
/// stale value passes no change on, so the run's end brings it up to date.
@Suite("A run's own writes")
struct OwnWritesTests {
  @Trackable final class Pair: @unchecked Sendable {
    var x = 0
    var y = 0
  }

  final class Recorder: @unchecked Sendable {
    var values: [Int] = []
  }

  /// Reads `sum`, then writes `pair.x`, one of its inputs: a run's own write through
  /// the derived value it read.
  static func readThenWrite(_ sum: Derived<Int>, _ pair: Pair) -> Int {
    let value = sum.value
    pair.x = 5
    return value
  }

  /// The observation writes `x`, which the derived value it read reads: the write
  /// does not run it again, and each later change of `y` does.
  @Test func anObservationThatWritesAnInputOfADerivedValueItReadHearsTheNextChanges() {
    let pair = Pair()
    let sum = Derived { pair.x + pair.y }
    let seen = Recorder()
    let token = observe {
      seen.values.append(sum.value)
      pair.x = 5
    }
    #expect(seen.values == [0])
    pair.y = 1
    #expect(seen.values == [0, 6])
    pair.y = 2
    withTransaction { pair.y = 3 }
    #expect(seen.values == [0, 6, 7, 8])
    token.cancel()
  }

  /// The same two levels down: the write makes the first value dirty and the second,
  /// which the observation read, pending.
  @Test func throughTwoDerivedValues() {
    let pair = Pair()
    let sum = Derived { pair.x + pair.y }
    let next = Derived { sum.value + 1 }
    let seen = Recorder()
    let token = withContinuousTracking(options: .didSet, delivery: .immediate, firstRun: .immediate) { _ in
      seen.values.append(next.value)
      pair.x = 5
    }
    #expect(seen.values == [1])
    pair.y = 1
    pair.y = 2
    #expect(seen.values == [1, 7, 8])
    token.cancel()
  }

  /// The own change is not dropped: the value moved on while the observation ran, and
  /// its next run, for another cause, reads the value as it is now.
  @Test func theNextRunForAnotherCauseReadsTheValueAsItIs() {
    let pair = Pair()
    let other = Pair()
    let sum = Derived { pair.x + pair.y }
    let seen = Recorder()
    let token = observe {
      seen.values.append(sum.value + 100 * other.x)
      pair.x = 5
    }
    other.x = 1
    #expect(seen.values == [0, 105])
    token.cancel()
  }

  /// A derived value whose closure writes an input of a derived value it reads: the
  /// write does not make it stale, and later changes of the other input still reach it
  /// and its observer.
  @Test func aDerivedValueThatWritesAnInputOfWhatItReadsHearsTheNextChanges() {
    let pair = Pair()
    let sum = Derived { pair.x + pair.y }
    let copy = Derived { Self.readThenWrite(sum, pair) }
    let seen = Recorder()
    let token = observe { seen.values.append(copy.value) }
    #expect(seen.values == [0])
    pair.y = 1
    pair.y = 2
    pair.y = 3
    #expect(seen.values == [0, 6, 7, 8])
    token.cancel()
  }

  // Another thread's change while the run is under way, after its own write: the own
  // write left the derived values it read stale, and a stale value passes no change on.
  // The change is the other thread's, so it must still reach the run (which then runs
  // again), through every stale value on its way. The other thread writes while the run
  // waits for it, at a chosen point (no timing involved).

  /// One derived value between the write and the observation.
  @Test func anotherThreadsChangeAfterTheRunsOwnWriteRunsItAgain() {
    let pair = Pair()
    let sum = Derived { pair.x + pair.y }
    let seen = Recorder()
    let first = FirstTime()
    let token = observe {
      seen.values.append(sum.value)
      guard first.take() else { return }
      pair.x = 5
      onAnotherThread { pair.y = 1 }
    }
    #expect(seen.values == [0, 6])
    pair.y = 2
    #expect(seen.values == [0, 6, 7])
    token.cancel()
  }

  /// Two derived values: the other thread's change meets the stale first value before
  /// the stale second one.
  @Test func anotherThreadsChangeAfterTheRunsOwnWriteReachesItThroughTwoDerivedValues() {
    let pair = Pair()
    let sum = Derived { pair.x + pair.y }
    let next = Derived { sum.value + 1 }
    let seen = Recorder()
    let first = FirstTime()
    let token = withContinuousTracking(options: .didSet, delivery: .immediate, firstRun: .immediate) { _ in
      seen.values.append(next.value)
      guard first.take() else { return }
      pair.x = 5
      onAnotherThread { pair.y = 1 }
    }
    #expect(seen.values == [1, 7])
    token.cancel()
  }

  /// A diamond between the write and the observation, twice: the other thread's change
  /// passes through both stale sides to the stale value that joins them (once), and the
  /// walk that passed leaves no mark behind for the next one.
  @Test func anotherThreadsChangeReachesTheRunThroughAStaleDiamondEachTime() {
    let pair = Pair()
    let base = Derived { pair.x + pair.y }
    let left = Derived { base.value + 1 }
    let right = Derived { base.value * 2 }
    let sum = Derived { left.value + right.value }
    let seen = Recorder()
    let token = observe {
      seen.values.append(sum.value)
      let round = seen.values.count
      guard round < 3 else { return }
      pair.x = round
      onAnotherThread { pair.y = round }
    }
    #expect(seen.values == [1, 7, 13])
    token.cancel()
  }

  /// A derived value whose closure writes an input of what it read: another thread's
  /// change during its computation reaches its observer, which reads it anew.
  @Test func anotherThreadsChangeWhileADerivedValueComputesAfterItsOwnWriteReachesItsObserver() {
    let pair = Pair()
    let sum = Derived { pair.x + pair.y }
    let first = FirstTime()
    let copy = Derived {
      let value = Self.readThenWrite(sum, pair)
      if first.take() { onAnotherThread { pair.y = 1 } }
      return value
    }
    let seen = Recorder()
    let token = observe { seen.values.append(copy.value) }
    #expect(seen.values == [0, 6])
    token.cancel()
  }

  final class Events: @unchecked Sendable {
    var kinds: [TrackingEvent.Kind] = []
  }

  /// A one-shot tracking whose `apply` writes an input of the derived value it read,
  /// which nothing else observes: as for a property `apply` writes, the write does not
  /// fire it; the next change does.
  @Test(arguments: [false, true])
  func aOneShotTrackingWhoseApplyWritesAnInputOfADerivedValueItRead(observedElsewhere: Bool) {
    let pair = Pair()
    let sum = Derived { pair.x + pair.y }
    let token = observedElsewhere ? observe { _ = sum.value } : nil
    let events = Events()
    withTracking(options: [.willSet, .didSet]) {
      _ = sum.value
      pair.x = 5
    } onChange: { event in
      events.kinds.append(event.kind)
    }
    #expect(events.kinds == [])
    pair.y = 1
    #expect(events.kinds == [.willSet, .didSet])
    #expect(sum.value == 6)
    token?.cancel()
  }

  // The other deliveries end their runs through the same graph code as `observe`: each
  // is checked once here, with the shape of the first test.

  /// A render loop's component that writes an input of a derived value it read is
  /// marked dirty by each later change of the other input.
  @MainActor @Test func aRenderLoopComponent() {
    let pair = Pair()
    let sum = Derived { pair.x + pair.y }
    let seen = Recorder()
    let loop = RenderLoop()
    let component = loop.register {
      seen.values.append(sum.value)
      pair.x = 5
    }
    #expect(seen.values == [0])
    #expect(!loop.isDirty(component))
    pair.y = 1
    #expect(loop.isDirty(component))
    #expect(loop.runCycle() == 1)
    pair.y = 2
    #expect(loop.runCycle() == 1)
    #expect(seen.values == [0, 6, 7])
    loop.unregister(component)
  }

  /// A `TrackedValues` sequence whose closure writes an input of a derived value it
  /// read yields a value for each later change of the other input. (Were the change
  /// lost, `next()` would wait for ever: the time limit makes that a failure.)
  @Test(.timeLimit(.minutes(1))) func aTrackedValuesSequence() async {
    let pair = Pair()
    let sum = Derived { pair.x + pair.y }
    var values = TrackedValues { Self.readThenWrite(sum, pair) }.makeAsyncIterator()
    #expect(await values.next() == 0)
    pair.y = 1
    #expect(await values.next() == 6)
    pair.y = 2
    #expect(await values.next() == 7)
  }
}
