import DerivedGraphScripts
import Foundation
import Testing

@_spi(Testing) @testable import Tracking

/// The edges from a derived value to the nodes that read it are links in the graph
/// (`Graph`), not observers in its registrar: a node has a link exactly while its
/// latest run read the value.
@Suite("Graph links")
struct GraphLinksTests {
  private func isLinked(_ reader: ReactiveNode, to value: Derived<Int>) -> Bool {
    value.node.readers.contains { $0 === reader }
  }

  private func reads(_ reader: ReactiveNode, _ value: Derived<Int>) -> Bool {
    Graph.withLock { Graph.dependencies(of: reader.graph) }.contains { $0.computation === value.node }
  }

  @Test func aRunThatReadsTheSameValuesKeepsItsLinksAndARetiredValueLeavesThem() {
    let inputs = DerivedInputs()
    let a = Derived { inputs.a }
    let b = Derived { inputs.b }
    let sum = Derived { a.value + b.value }
    let seen = Received<Int>()
    let token = observe { seen.append(sum.value) }
    for value in 2...20 { inputs.a = value }
    #expect(seen.values == [11] + (2...20).map { $0 + 10 })
    #expect(sum.inputRelinkCount == 1)
    #expect(isLinked(sum.node, to: a) && isLinked(sum.node, to: b))
    #expect(a.node.readers.count == 1 && b.node.readers.count == 1)
    #expect(sum.node.readers.count == 1)
    token.cancel()
    #expect(sum.node.readers.isEmpty)
    // Nobody observes `sum`: the next change retires it, which takes it off the lists.
    inputs.a = 0
    #expect(a.node.readers.isEmpty && b.node.readers.isEmpty)
    #expect(sum.value == 10)
  }

  @Test func aRunThatStopsReadingAValueLeavesItsList() {
    let inputs = DerivedInputs()
    let a = Derived { inputs.a }
    let b = Derived { inputs.b }
    let chosen = Derived { inputs.useA ? a.value : b.value }
    let seen = Received<Int>()
    let token = observe { seen.append(chosen.value) }
    #expect(isLinked(chosen.node, to: a) && !isLinked(chosen.node, to: b))
    inputs.useA = false
    #expect(!isLinked(chosen.node, to: a) && isLinked(chosen.node, to: b))
    inputs.a = 5  // no longer read: nothing runs
    inputs.b = 20
    #expect(seen.values == [1, 10, 20])
    token.cancel()
  }

  /// The computations `node`'s links name, in order.
  private func links(of node: ReactiveNode) -> [ObjectIdentifier] {
    Graph.withLock { Graph.dependencies(of: node.graph) }.map { ObjectIdentifier($0.computation) }
  }

  /// A run reads through a cursor over the previous run's links: reads in another
  /// order, a value read twice, and a value no longer read leave exactly one link per
  /// value read, in the order of the first reads.
  @Test func theCursorLeavesOneLinkPerValueReadInTheOrderOfTheFirstReads() {
    let inputs = DerivedInputs()
    let a = Derived { inputs.a }
    let b = Derived { inputs.b }
    let c = Derived { inputs.unrelated }
    let mixed = Derived { inputs.useA ? a.value + b.value + a.value + c.value : b.value + a.value + b.value }
    let token = observe { _ = mixed.value }
    let (idA, idB, idC) = (ObjectIdentifier(a.node), ObjectIdentifier(b.node), ObjectIdentifier(c.node))
    #expect(links(of: mixed.node) == [idA, idB, idC])
    #expect(mixed.value == 1 + 10 + 1 + 0)
    inputs.useA = false
    #expect(links(of: mixed.node) == [idB, idA])
    #expect(!isLinked(mixed.node, to: c) && c.node.readers.isEmpty)
    #expect(mixed.value == 10 + 1 + 10)
    inputs.a = 2
    #expect(mixed.value == 10 + 2 + 10)
    inputs.useA = true
    #expect(links(of: mixed.node) == [idA, idB, idC])
    #expect(a.node.readers.count == 1 && b.node.readers.count == 1 && c.node.readers.count == 1)
    token.cancel()
  }

  /// A run that reads more values than the cursor scans for (past
  /// `Graph.readIndexThreshold`, it looks reads up in an index): each value read twice,
  /// then all of them in the other order, then other values, then the first ones again.
  /// Each time, one link per value read, in the order of the first reads.
  @Test func aWideRunLeavesOneLinkPerValueWhateverTheOrderOfItsReads() {
    let inputs = DerivedInputs()
    let count = 3 * Graph.readIndexThreshold
    let first = (0..<count).map { offset in Derived { inputs.a + offset } }
    let second = (0..<count).map { offset in Derived { inputs.b + offset } }
    let order = Locked(0)  // 0: first twice, 1: first reversed, 2: second
    let sum = Derived { () -> Int in
      switch order.withLock({ $0 }) {
      case 0: (first + first).reduce(0) { $0 + $1.value }
      case 1: first.reversed().reduce(0) { $0 + $1.value }
      default: second.reduce(0) { $0 + $1.value }
      }
    }
    let seen = Received<Int>()
    let token = observe { seen.append(sum.value) }
    let triangle = count * (count - 1) / 2
    #expect(links(of: sum.node) == first.map { ObjectIdentifier($0.node) })
    order.withLock { $0 = 1 }
    inputs.a = 2
    #expect(links(of: sum.node) == first.reversed().map { ObjectIdentifier($0.node) })
    order.withLock { $0 = 2 }
    inputs.a = 3
    #expect(links(of: sum.node) == second.map { ObjectIdentifier($0.node) })
    #expect(first.allSatisfy { $0.node.readers.isEmpty })
    order.withLock { $0 = 0 }
    inputs.b = 11
    #expect(links(of: sum.node) == first.map { ObjectIdentifier($0.node) })
    #expect(first.allSatisfy { $0.node.readers.count == 1 } && second.allSatisfy { $0.node.readers.isEmpty })
    #expect(seen.values == [2 * (count + triangle), 2 * count + triangle, 10 * count + triangle, 2 * (3 * count + triangle)])
    token.cancel()
  }

  /// A pull deeper than the frames it keeps on the stack (32) goes on in an array.
  @Test func aChainDeeperThanThePullsStackFramesPullsInOrder() {
    let inputs = DerivedInputs()
    var chain = [Derived { inputs.a }]
    for _ in 0..<100 {
      let previous = chain[chain.count - 1]
      chain.append(Derived { previous.value + 1 })
    }
    let last = chain[chain.count - 1]
    let seen = Received<Int>()
    let token = observe { seen.append(last.value) }
    inputs.a = 5
    inputs.a = 7
    #expect(seen.values == [101, 105, 107])
    #expect(chain.allSatisfy { $0.recomputeCount == 3 })
    token.cancel()
  }

  /// Values left stale and without readers retire one after another, each dropping
  /// the last link to the next: not recursively, so a chain thousands deep retires on
  /// a thread with a small stack (a recursive retirement needs hundreds of bytes of
  /// stack per value, megabytes here).
  @Test func aStaleChainThousandsDeepRetiresOnASmallStack() async {
    let inputs = DerivedInputs()
    var chain = [Derived { inputs.a }]
    for _ in 0..<20_000 {
      // Unowned (the array holds them): captured strongly, the values would be
      // released at the end in one deep recursion of deinits.
      let previous = chain[chain.count - 1]
      chain.append(Derived { [unowned previous] in previous.value + 1 })
      _ = chain[chain.count - 1].value  // computed link by link, not by one deep read
    }
    let last = chain[chain.count - 1]
    let token = observe { _ = last.value }
    #expect(inputs.observerCount == 1)
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      let thread = Thread {
        withTransaction {
          inputs.a = 2
          token.cancel()
        }
        done.resume()
      }
      thread.stackSize = 256 << 10
      thread.start()
    }
    #expect(inputs.observerCount == 0)
    #expect(chain.allSatisfy { $0.node.readers.isEmpty })
    // Retired, the values read nothing: read again link by link (one read of the
    // last would compute the whole chain in one deep recursion of closures).
    #expect(chain.map(\.value).last == 20_002)
  }

  @Test func aOneShotTrackingNestedInARunLinksTheRunNotAnObserver() {
    let inputs = DerivedInputs()
    let doubled = Derived { inputs.a * 2 }
    let seen = Received<Int>()
    let fired = Received<Int>()
    let token = observe {
      withTracking { seen.append(doubled.value) } onChange: { fired.append(0) }
    }
    // The reaction is on the list once; only the one-shot tracking observes the
    // registrar (the run took the value from the nested scope as a computation, not as
    // an object to install its own observer on).
    #expect(doubled.node.readers.count == 1)
    #expect(doubled.node.registrar.installedObserverCount == 1)
    inputs.a = 5
    #expect(seen.values == [2, 10])
    #expect(fired.values.count == 1)
    #expect(doubled.node.readers.count == 1)
    token.cancel()
    #expect(doubled.node.readers.isEmpty)
  }

  /// Past 16 readers the list keeps a table of positions, and a reader that leaves
  /// is replaced by the last one: the rest must stay on it, each once.
  @Test func aLongListLosesOnlyTheReadersThatLeave() {
    let inputs = DerivedInputs()
    let doubled = Derived { inputs.a * 2 }
    let runs = Received<Int>()
    let tokens = (0..<40).map { index in observe { runs.append(index + doubled.value - doubled.value) } }
    #expect(doubled.node.readers.count == 40)
    for (index, token) in tokens.enumerated() where index.isMultiple(of: 2) { token.cancel() }
    #expect(doubled.node.readers.count == 20)
    let before = runs.values.count
    inputs.a = 5
    #expect(Set(runs.values.dropFirst(before)) == Set((0..<40).filter { !$0.isMultiple(of: 2) }))
    #expect(runs.values.count == before + 20)
    for token in tokens { token.cancel() }
    #expect(doubled.node.readers.isEmpty)
  }

  @Test func observedAndUnobservedHooksCountTheReaders() {
    let inputs = DerivedInputs()
    let doubled = Derived { inputs.a * 2 }
    let calls = Received<Bool>()
    let hooks = doubled.onObservation { calls.append(true) } unobserved: { calls.append(false) }
    let first = observe { _ = doubled.value }
    let second = observe { _ = doubled.value }
    #expect(calls.values == [true])
    first.cancel()
    #expect(calls.values == [true])
    second.cancel()
    #expect(calls.values == [true, false])
    hooks.cancel()
  }

  /// A pull pins the values it walks into instead of retaining them (`GraphNode.pin()`):
  /// a link dropped while the pull stands on its value leaves its reference held
  /// until the pull leaves the value. Here the deepest value's closure, during the pull
  /// that the observation's run makes, releases the two values above it, which the
  /// observation and the top value read through weak references: both are cancelled,
  /// and every link that held the middle value goes while the pull stands on it. The
  /// pull finishes, and the chain is then freed (a held reference never released would
  /// keep it; one released at once would free the middle value under the pull, which
  /// the node's deinit asserts against).
  @Test func aPullOutlivesTheLinksOfTheValuesItStandsOnAndReleasesWhatItHeld() {
    let inputs = DerivedInputs()
    let held = PullVictims()
    let seen = Received<Int>()
    weak var weakTop: ReactiveNode?
    weak var weakMiddle: ReactiveNode?
    weak var weakBottom: ReactiveNode?
    do {
      let bottom = Derived { () -> Int in
        let a = inputs.a
        if a == 2 { held.values = [] }
        return a
      }
      let middle = Derived { bottom.value + 1 }
      let top = Derived { [weak middle] in (middle?.value ?? 0) + 1 }
      weakTop = top.node
      weakMiddle = middle.node
      weakBottom = bottom.node
      held.values = [top, middle]
      held.token = observe { [weak top] in seen.append(top?.value ?? 0) }
    }
    #expect(weakTop != nil && weakMiddle != nil && weakBottom != nil)
    #expect(seen.values == [3])
    inputs.a = 2
    #expect(weakMiddle == nil)
    held.token = nil
    #expect(weakTop == nil && weakBottom == nil)
  }

  /// A write marks the derived values that read the property in the graph while it
  /// holds the object's lock; a reader coming and going takes the value's own registrar
  /// lock (its hooks) while it holds the graph lock. Both at once, on two threads, for
  /// a bounded number of rounds: neither waits for the other (a deadlock would hang
  /// here), the hooks' calls alternate, and the last write is seen.
  @Test func aWriteMarkingInTheGraphRacingAHookedValuesReadersCompletes() {
    let x = LockedCell()
    let doubled = Derived { x.value * 2 }
    let transitions = Received<Bool>()
    let hooks = doubled.onObservation { transitions.append(true) } unobserved: { transitions.append(false) }
    let seen = Received<Int>()
    DispatchQueue.concurrentPerform(iterations: 2) { worker in
      for _ in 0..<2_000 {
        if worker == 0 {
          x.value += 1
        } else {
          let token = observe { seen.append(doubled.value) }
          token.cancel()
        }
      }
    }
    // One reader at a time: observed and unobserved alternate, and end unobserved.
    // Not one pair per reader, though. A cancellation that meets a run of the same
    // observation on the writing thread (the write re-ran it) drops the links at once,
    // and the run links the value again before it sees the cancellation and drops
    // them: each thread is told its own transitions once it has left the locks, and
    // the hooks count them as they arrive. If the writing thread is preempted before
    // it tells its last "unobserved", the next readers' transitions arrive while the
    // count is one and call nothing: their pairs merge into one (the CI machine, under
    // the whole suite's load, once saw fewer than one pair per reader).
    let told = transitions.values
    #expect(told.count >= 2 && told.count % 2 == 0)
    #expect(told.enumerated().allSatisfy { $0.element == ($0.offset % 2 == 0) })
    // Once the race is over, every transition is told: one reader is one pair.
    let last = observe { seen.append(doubled.value) }
    #expect(transitions.values == told + [true])
    #expect(seen.values.last == x.value * 2)
    last.cancel()
    #expect(transitions.values == told + [true, false])
    hooks.cancel()
  }

  /// A retirement (the value lost its last reader, on the writing thread) and a
  /// recomputation that links the value again (on the reading thread) overlap: the
  /// lists must end up matching what each node read, with no link counted twice, and
  /// the value must still hear its inputs (a recomputation that ended between the
  /// retirement's mark and its drop of the links once left it current with none: it
  /// failed here about one run in four at 20 000 writes).
  @Test func aRetirementRacingARecomputationKeepsTheListsExact() {
    let x = LockedCell()
    let source = Derived { x.value }
    let reader = Derived { source.value + 1 }
    _ = reader.value
    DispatchQueue.concurrentPerform(iterations: 2) { worker in
      for _ in 0..<20_000 {
        if worker == 0 {
          x.value += 1  // `reader` is read by nobody: it retires
        } else {
          _ = reader.value  // recomputes `reader`, which links it to `source` again
        }
      }
    }
    #expect(isLinked(reader.node, to: source) == reads(reader.node, source))
    // The graph still works.
    let seen = Received<Int>()
    let token = observe { seen.append(reader.value) }
    x.value += 1
    #expect(seen.values.last == x.value + 1)
    token.cancel()
    // Each link was counted once: cancelling the reader empties the list.
    reader.node.cancel()
    #expect(source.node.readers.isEmpty)
  }

  /// Pulls that pin a value race readers that let go of it. One thread writes to the
  /// bottom of an observed chain: the observation's pull pins `middle` while it
  /// recomputes `bottom`. The other drops, one by one, readers of `middle` made
  /// before, each once a write's pull is recomputing `bottom`: their links to
  /// `middle` go while it is pinned, and the pin holds their references. Bounded:
  /// every pull finishes with the right value, `middle`'s readers end up exact, and
  /// once everything is let go nothing is left (a held reference never released, or
  /// a pin never ended, would keep `middle`). (That a held reference is not released
  /// early is the test above's.)
  @Test func pullsThatPinAValueRacingReadersThatLetGoOfItLoseNothing() {
    weak var weakMiddle: ReactiveNode?
    weak var weakTop: ReactiveNode?
    do {
      let x = LockedCell()
      let runs = Locked(0)
      let bottom = Derived { () -> Int in
        runs.withLock { $0 += 1 }
        var value = x.value
        for step in 0..<300 { value &+= step & 0 }
        return value
      }
      let middle = Derived { bottom.value + 1 }
      let top = Derived { middle.value + 1 }
      weakMiddle = middle.node
      weakTop = top.node
      // Observed, so that the observation's run pulls `top` and walks into `middle`.
      let token = observe { _ = top.value }
      // Kept alive: each keeps its link to `middle` until it is released.
      let readers = Locked((0..<1_000).map { _ in Derived { middle.value * 2 } })
      readers.withLock {
        $0.forEach {
          $0.keepsAlive = true
          _ = $0.value
        }
      }
      let wrong = Locked(0)
      let writerDone = Locked(false)
      DispatchQueue.concurrentPerform(iterations: 2) { worker in
        for round in 0..<1_000 {
          if worker == 0 {
            x.value += 1
            if top.value != x.value + 2 { wrong.withLock { $0 += 1 } }
          } else {
            // One reader dropped per write, once the write's pull is recomputing
            // `bottom` (it ran once before): the writer never waits for this thread,
            // and this one stops waiting when the writer is done.
            while runs.withLock({ $0 }) <= round + 1 && !writerDone.withLock({ $0 }) {}
            // Released outside the lock: its deinit drops its link.
            let reader = readers.withLock { $0.removeLast() }
            _ = reader
          }
        }
        if worker == 0 { writerDone.withLock { $0 = true } }
      }
      #expect(wrong.withLock { $0 } == 0)
      #expect(middle.node.readers.count == 1 && middle.node.readers.first === top.node)
      token.cancel()
    }
    #expect(weakMiddle == nil && weakTop == nil)
  }

  /// A one-shot tracking that reads a derived value while a write retires it (nobody
  /// else observes it) on another thread: every tracking hears the next change.
  @Test func aOneShotTrackingRacingARetirementHearsTheNextChange() {
    let x = LockedCell()
    let source = Derived { x.value }
    let reader = Derived { source.value + 1 }
    let fired = Received<Int>()
    let installed = Locked(0)
    DispatchQueue.concurrentPerform(iterations: 2) { worker in
      for index in 0..<2_000 {
        if worker == 0 {
          x.value += 1
        } else {
          withTracking { _ = reader.value } onChange: { fired.append(index) }
          installed.withLock { $0 += 1 }
        }
      }
    }
    x.value += 1
    #expect(fired.values.count == installed.withLock { $0 })
  }

  /// A pull of a pending value that finds its input unchanged, while a write on
  /// another thread changes that input (and finds the value pending already): the
  /// value must not be made current with what the pull saw before the write.
  @Test func aPullRacingAWriteNeverMakesAStaleValueCurrent() {
    let x = LockedCell()
    let half = Derived { x.value / 2 }  // equal after every other write: a pull stops there
    let reader = Derived { half.value + 1 }
    half.keepsAlive = true
    reader.keepsAlive = true
    _ = reader.value
    DispatchQueue.concurrentPerform(iterations: 2) { worker in
      for _ in 0..<3_000 {
        if worker == 0 { x.value += 1 } else { _ = reader.value }
      }
    }
    #expect(reader.value == x.value / 2 + 1)
  }

  /// A pull of a pending value whose input another thread is recomputing right now.
  /// The input's flags are clear by then, but its new version is not stored yet: the
  /// pull must wait for that recomputation, not take the old version for the current
  /// one. Taking it made the reader current with its old value, and the recomputation's
  /// own pull then found the reader current: the change was lost until the next write.
  @Test func aPullWaitsForARecomputationUnderWayOnAnotherThread() {
    let x = LockedCell()
    x.value = 1
    let gate = RecomputationGate()
    let input = Derived {
      gate.pass()
      return x.value * 2
    }
    let reader = Derived { input.value + 1 }
    reader.keepsAlive = true
    #expect(reader.value == 3)
    gate.close()
    let recomputed = DispatchSemaphore(value: 0)
    // Thread R: the write marks `input` dirty and `reader` pending; R's read of `input`
    // recomputes it, and waits in its closure.
    Thread {
      x.value = 5
      _ = input.value
      recomputed.signal()
    }.start()
    gate.waitUntilEntered()
    // Thread Q reads `reader` while `input` is being recomputed.
    let read = Locked(0)
    let readDone = DispatchSemaphore(value: 0)
    Thread {
      let value = reader.value
      read.withLock { $0 = value }
      readDone.signal()
    }.start()
    // A bound, not a synchronization: with the defect, Q's read finishes while the
    // gate is closed (then the assertions below fail); without it, Q waits for R, and
    // the bound only ends the wait. The assertions hold either way once both are done.
    let readWhileClosed = readDone.wait(timeout: .now() + .milliseconds(500)) == .success
    gate.open()
    recomputed.wait()
    if !readWhileClosed { readDone.wait() }
    #expect(read.withLock { $0 } == 11)
    #expect(reader.value == 11)
  }
}

/// Holds a recomputation inside its closure while closed: the closure calls `pass()`.
private final class RecomputationGate: @unchecked Sendable {
  private let closed = Locked(false)
  private let entered = DispatchSemaphore(value: 0)
  private let released = DispatchSemaphore(value: 0)

  func close() { closed.withLock { $0 = true } }

  func open() {
    closed.withLock { $0 = false }
    released.signal()
  }

  func waitUntilEntered() { entered.wait() }

  func pass() {
    guard closed.withLock({ $0 }) else { return }
    entered.signal()
    released.wait()
  }
}

/// What a closure under test lets go of during a pull: derived values it releases,
/// and the token of the observation under test.
private final class PullVictims: @unchecked Sendable {
  private let lock = NSLock()
  private var storedToken: TrackingToken?
  private var storedValues: [Derived<Int>] = []
  var token: TrackingToken? {
    get { lock.withLock { storedToken } }
    set { lock.withLock { storedToken = newValue } }
  }
  var values: [Derived<Int>] {
    get { lock.withLock { storedValues } }
    set {
      var values = newValue
      lock.withLock { swap(&values, &storedValues) }
      // The values replaced are released here, outside the lock: their deinits cancel
      // their nodes.
    }
  }
}
