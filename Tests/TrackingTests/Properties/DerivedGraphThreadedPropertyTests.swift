import DerivedGraphScripts
import Foundation
import PropertyBased
import Testing
import Tracking

/// Random derived graphs used from two or three threads at once: each thread repeats
/// its own random writes, transactions, reads, cancellations and restarts (an effect
/// started again makes its first run while other threads write). When they are done,
/// every computation's value agrees with its inputs' values (equal to what its closure
/// computes from them, or equal by its rule), and every live effect's latest run read
/// the values that are there at the end — no change lost, whatever thread made it or
/// ran the effect. ThreadSanitizer runs it too.
///
/// Half of the effects that take events hear will-sets, which run them before another
/// thread's write stores its value; the did-set after it must run them again.
///
/// Effects that write (one in three writes a value of its own to a signal of its own)
/// write on whatever thread runs them. Such a write does not reach the run that made it,
/// nor the runs it is nested in on that thread (the own-writes rule), so a read made
/// before it may be left behind: such a run is accounted for by the values its reads
/// and writes imply (see `ThreadedDerivedGraphWorld.check(effect:run:)`).
///
@Suite("Properties: random derived graphs across threads", .timeLimit(.minutes(2)))
struct DerivedGraphThreadedPropertyTests {
  static func check(_ script: ThreadedDerivedGraphScript, sourceLocation: SourceLocation = #_sourceLocation) {
    let world = ThreadedDerivedGraphWorld(script.graph)
    let failures = world.run(script.threads, rounds: Self.rounds)
    #expect(
      failures.isEmpty, "\(failures.joined(separator: "\n"))\nscript:\n\(script)", sourceLocation: sourceLocation)
  }

  @Test func everyValueAndEffectEndsConsistent() async {
    await propertyCheck(count: Self.count, input: DerivedGraphGenerator.threadedScripts()) { script in
      Self.check(script)
    }
  }

  /// Each thread runs its operations this many times (the values written vary with
  /// the round).
  static let rounds = 20
  static let count = (Int(ProcessInfo.processInfo.environment["TRACKING_PROPERTY_CASES"] ?? "") ?? 400) / 8
}

/// Runs a graph's threads on the runtime, then compares the end state with the values
/// computed by hand. Thread-safe: the effects are in their slots (see ``EffectSlots``),
/// and the rest is set before the threads start.
final class ThreadedDerivedGraphWorld: @unchecked Sendable {
  private let graph: DerivedGraphScript
  /// The graph made with the runtime (see ``LiveDerivedGraph``).
  private let live: LiveDerivedGraph
  /// Each live effect's token, and what its latest run read and wrote, in order.
  private let effects: EffectSlots<TrackingToken, [RunEvent]>

  init(_ graph: DerivedGraphScript) {
    self.graph = graph
    live = LiveDerivedGraph(graph)
    effects = EffectSlots(count: graph.effects.count, noRun: [])
  }

  /// One step of an effect's run: a read and the value it returned, or a write made
  /// on the run's thread while the run was under way (by the run itself or by a run
  /// nested in it) and the value the signal held before it.
  enum RunEvent {
    case read(GraphInput, Int)
    case wrote(signal: Int, before: Int, value: Int)
  }

  /// The runs under way on one thread, innermost last: a write is logged in each.
  final class RunStack {
    var logs: [RunLog] = []

    /// The current thread's stack, made on first use.
    static var current: RunStack {
      let key = "DerivedGraphThreadedPropertyTests.RunStack"
      if let stack = Thread.current.threadDictionary[key] as? RunStack { return stack }
      let stack = RunStack()
      Thread.current.threadDictionary[key] = stack
      return stack
    }
  }

  final class RunLog {
    var events: [RunEvent] = []
  }

  /// Runs each thread's operations `rounds` times, all threads at once, and returns
  /// what does not agree with the values computed by hand at the end.
  func run(_ threads: [[GraphOp]], rounds: Int) -> [String] {
    for index in graph.effects.indices { start(index) }
    DispatchQueue.concurrentPerform(iterations: threads.count) { thread in
      for round in 0..<rounds {
        for op in threads[thread] { perform(op, round: round) }
      }
    }
    var failures = live.computationFailures()
    let (tokens, runs, _) = effects.snapshot()
    for index in graph.effects.indices where tokens[index] != nil {
      failures += check(effect: index, run: runs[index])
    }
    for token in tokens { token?.cancel() }
    return failures
  }

  private func perform(_ op: GraphOp, round: Int) {
    live.perform(op, round: round, cancel: { effects.take($0)?.cancel() }, restart: start)
  }

  /// Starts effect `index` unless it is live or being started: a new observation,
  /// whose first run is now, on this thread, while the other threads write.
  ///
  /// Of the effects that take events, those with an odd number hear will-sets: they
  /// run before a write stores its value too, and the did-set that follows runs them
  /// again (the final value is never lost).
  private func start(_ index: Int) {
    guard let generation = effects.beginStart(index) else { return }
    let token =
      graph.effects[index].takesEvents
      ? withContinuousTracking(
        options: index % 2 == 1 ? .willSet : .didSet, delivery: .immediate, firstRun: .immediate
      ) { [unowned self] _ in
        self.runEffect(index, generation: generation)
      }
      : observe { [unowned self] in self.runEffect(index, generation: generation) }
    effects.keep(token, for: index)
  }

  private func runEffect(_ index: Int, generation: Int) {
    let effect = graph.effects[index]
    let stack = RunStack.current
    let log = RunLog()
    stack.logs.append(log)
    for (position, read) in effect.reads.enumerated() {
      if let write = effect.write, write.before == position { writeOwn(write, on: stack) }
      if let condition = read.onlyIfOdd {
        let value = value(of: condition)
        log.events.append(.read(condition, value))
        if value % 2 == 0 { continue }
      }
      log.events.append(.read(read.input, value(of: read.input)))
    }
    if let write = effect.write, write.before == effect.reads.count { writeOwn(write, on: stack) }
    stack.logs.removeLast()
    effects.record(log.events, of: index, generation: generation)
  }

  /// An effect's write: logged in every run under way on this thread, then made. A
  /// write of the value already there is skipped (`LockedCell` would announce it), so
  /// that the runs effects' writes cause one another end.
  private func writeOwn(_ write: GraphEffectWrite, on stack: RunStack) {
    let cell = live.signals[write.signal]
    let before = cell.untrackedValue
    guard before != write.value else { return }
    for log in stack.logs { log.events.append(.wrote(signal: write.signal, before: before, value: write.value)) }
    cell.value = write.value
  }

  /// What the effect's latest run read against the values at the end.
  ///
  /// Without writes of its own, each read returned the value at the end: a change made
  /// after a read, on any thread, reaches the run, which then runs again.
  ///
  /// With them, a read made before such a write may be left behind, and the write may
  /// also change what the run's links reach (a computation whose condition flips stops
  /// reading a signal), so that a later change of a signal no longer reached is rightly
  /// not heard. So the run is accounted for by a search: some values of the signals
  /// when it started (0…2, as every write here) must give every value it read, with the
  /// writes on its thread applied in order as it made them; and every signal that
  /// changed after the run must be outside what its links reach once it ended (its
  /// reads, and what the computations among them read for the values then). If no
  /// such values exist, a change was lost or a read was wrong. Where the effect can
  /// reach a computation that keeps values equal by its rule (`sameParity`), its values
  /// and the links below it depend on what it cached, and such a run is not checked.
  private func check(effect index: Int, run events: [RunEvent]) -> [String] {
    var stale: [String] = []
    for case .read(let input, let seen) in events where seen != value(of: input) {
      stale.append("\(input) = \(seen), and it is \(value(of: input)) at the end")
    }
    guard !stale.isEmpty else { return [] }
    let wrote = events.contains { if case .wrote = $0 { true } else { false } }
    if wrote {
      let inputs = events.compactMap { event -> GraphInput? in
        if case .read(let input, _) = event { input } else { nil }
      }
      if inputs.contains(where: keepsEqualValues) || explains(events, current: live.signals.map(\.untrackedValue)) {
        return []
      }
    }
    let note = wrote ? " (no values at its start explain its reads and own writes)" : ""
    return stale.map { "e\(index)'s latest run read \($0)\(note)" }
  }

  /// Whether some values of the signals at the start of a run give every value it read,
  /// and leave every change after it outside what its links reach (see ``check(effect:run:)``).
  private func explains(_ events: [RunEvent], current: [Int]) -> Bool {
    let count = current.count
    let none = [Int?](repeating: nil, count: graph.computations.count)
    let combinations = (0..<count).reduce(1) { product, _ in product * 3 }
    candidates: for code in 0..<combinations {
      // The digits of `code` in base 3, one per signal.
      var values: [Int] = []
      var digits = code
      for _ in 0..<count {
        values.append(digits % 3)
        digits /= 3
      }
      var reached: Set<Int> = []
      var reads: [GraphInput] = []
      for event in events {
        switch event {
        case .wrote(let signal, let before, let value):
          guard values[signal] == before else { continue candidates }
          values[signal] = value
        case .read(let input, let seen):
          guard graph.value(of: input, signals: values, computed: graph.values(signals: values, cached: none)) == seen
          else { continue candidates }
          reads.append(input)
        }
      }
      let computed = graph.values(signals: values, cached: none)
      for input in reads { reached.formUnion(signalsRead(through: input, signals: values, computed: computed)) }
      if reached.allSatisfy({ values[$0] == current[$0] }) { return true }
    }
    return false
  }

  /// The signals that a link to `input` reaches when the signals hold `signals`: the
  /// signal itself, or what the computation reads for those values, and so on.
  private func signalsRead(through input: GraphInput, signals: [Int], computed: [Int]) -> Set<Int> {
    switch input {
    case .signal(let index):
      return [index]
    case .computation(let index):
      var reached: Set<Int> = []
      for read in graph.computations[index].reads {
        if let condition = read.onlyIfOdd {
          reached.formUnion(signalsRead(through: condition, signals: signals, computed: computed))
          if graph.value(of: condition, signals: signals, computed: computed) % 2 == 0 { continue }
        }
        reached.formUnion(signalsRead(through: read.input, signals: signals, computed: computed))
      }
      return reached
    }
  }

  /// Whether `input` is a computation that keeps a recomputed value only equal by its
  /// rule (`sameParity`), or one that may read such a computation.
  private func keepsEqualValues(_ input: GraphInput) -> Bool {
    guard case .computation(let index) = input else { return false }
    let computation = graph.computations[index]
    if computation.rule == .sameParity { return true }
    return computation.reads.contains { read in
      keepsEqualValues(read.input) || read.onlyIfOdd.map(keepsEqualValues) == true
    }
  }

  private func value(of input: GraphInput) -> Int { live.value(of: input) }
}
