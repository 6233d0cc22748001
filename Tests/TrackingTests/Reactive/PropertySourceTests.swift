import DerivedGraphScripts
import Dispatch
import Testing
@_spi(Testing) @testable import Tracking

/// Tracked properties as sources of the reactive graph: what a node's run links to,
/// what a write propagates from, and how they follow their object's life.
@Suite struct PropertySourceTests {
  /// An observation is installed on a property when a run first reads it, and keeps its
  /// place among the property's readers while its runs read it again, whatever else
  /// they read: a one-shot tracking installed between two observations runs between
  /// them, and an observation whose reads grew does not move behind the others.
  @Test func whatWatchesAPropertyIsToldInTheOrderItStartedWatchingIt() {
    let model = Counter()
    let other = Counter()
    let log = EventLog()
    let first = observe {
      // Reads `other` too once the count is odd: its reads change, its place does not.
      if model.count % 2 == 1 { _ = other.count }
      log("first \(model.count)")
    }
    withTracking { _ = model.count } didSet: { _ in log("one-shot") }
    let second = observe { log("second \(model.count)") }
    model.count = 1
    model.count = 2
    #expect(log.events == ["first 0", "second 0", "first 1", "one-shot", "second 1", "first 2", "second 2"])
    first.cancel()
    second.cancel()
  }

  /// A reaction that read several properties of an object hears of its deallocation
  /// once.
  @Test func aReactionHearsOfADeallocationOnceHoweverManyPropertiesItRead() {
    // The run that hears the deallocation reads the holder's weak reference, not the
    // variable whose assignment deallocates the object.
    final class Holder: @unchecked Sendable { weak var model: Counter? }
    let holder = Holder()
    var model: Counter? = Counter()
    holder.model = model
    let log = EventLog()
    let token = withContinuousTracking(options: .deinit, delivery: .immediate, firstRun: .immediate) { event in
      _ = (holder.model?.count, holder.model?.label, holder.model?.history)
      log("\(event.kind)")
    }
    model = nil
    #expect(log.events == ["initial", "deinit"])
    token.cancel()
  }

  /// A whole-object read links to the object's own source, which every write reaches,
  /// once per write, and a property's readers are reached as well.
  @Test func aWholeObjectReadHearsEveryPropertyOnce() {
    let counter = Counter()
    let whole = Received<Int>()
    let one = Received<String>()
    let all = observe {
      counter.trackEveryProperty()
      whole.append(counter.count)
    }
    let label = observe { one.append(counter.label) }
    counter.count = 1
    counter.label = "x"
    #expect(whole.values == [0, 1, 1])
    #expect(one.values == ["counter", "x"])
    all.cancel()
    label.cancel()
  }

  /// A run that reads a property for the first time (making its source) while another
  /// thread writes it never misses the write: either the read sees the new value, or
  /// the write reaches the new link. Bounded: 500 rounds, a fresh object each. (A
  /// `LockedCell`: a tracked property's storage is no more thread-safe than a plain
  /// property's.)
  @Test func aFirstReadRacingAWriteLosesNothing() {
    final class Round: @unchecked Sendable {
      let cell = LockedCell()
      let seen = Locked(-1)
      var token: TrackingToken?  // written by one side, read once both have ended
    }
    for _ in 0..<500 {
      let round = Round()
      DispatchQueue.concurrentPerform(iterations: 2) { side in
        if side == 0 {
          round.cell.value = 1
        } else {
          round.token = observe { [round] in
            let value = round.cell.value
            round.seen.withLock { $0 = value }
          }
        }
      }
      #expect(round.seen.withLock { $0 } == 1)
      round.token?.cancel()
    }
  }

  /// Derived values and observations over one object, made and dropped: each leaves
  /// the object's sources with no subscriber, and a write then reaches nothing.
  @Test func droppedReadersLeaveNoSubscriber() {
    let counter = Counter()
    do {
      let doubled = Derived { counter.count * 2 }
      let tokens = (0..<10).map { _ in observe { _ = doubled.value + counter.count } }
      #expect(ObservedMaskTests.storage(counter).nodeReaders().count == 11)
      tokens.forEach { $0.cancel() }
      counter.count += 1  // the value, unobserved now, retires
    }
    #expect(ObservedMaskTests.storage(counter).nodeReaders().isEmpty)
  }
}
