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
    let failures = world.run(script.threads, rounds: ThreadedDerivedGraphScript.rounds)
    #expect(
      failures.isEmpty, "\(failures.joined(separator: "\n"))\nscript:\n\(script)", sourceLocation: sourceLocation)
  }

  @Test(.shrinking(false)) func everyValueAndEffectEndsConsistent() async {
    let scripts = DerivedGraphGenerator.threadedScripts()
    await propertyCheck(count: ThreadedDerivedGraphScript.scriptCount, input: scripts) { script in
      Self.check(script)
    }
  }
}

/// Runs a graph's threads on the runtime, then compares the end state with the values
/// computed by hand. Thread-safe: the effects are in their slots (see ``EffectSlots``),
/// and the rest is set before the threads start.
final class ThreadedDerivedGraphWorld: @unchecked Sendable {
  private let graph: DerivedGraphScript
  /// The graph made with the runtime (see ``LiveDerivedGraph``).
  private let live: LiveDerivedGraph
  /// Each live effect's token, and what its latest run read and wrote, in order.
  private let effects: EffectSlots<TrackingToken, [EffectRunEvent]>

  init(_ graph: DerivedGraphScript) {
    self.graph = graph
    live = LiveDerivedGraph(graph)
    effects = EffectSlots(count: graph.effects.count, noRun: [])
  }

  /// Runs each thread's operations `rounds` times, all threads at once, and returns
  /// what does not agree with the values computed by hand at the end.
  ///
  /// The graph's observed/unobserved hooks are checked too (see ``GraphHooks``): at
  /// the end, what the live effects read is observed; once they are cancelled and the
  /// values left unobserved have retired, nothing unexplained is.
  func run(_ threads: [[GraphOp]], rounds: Int) -> [String] {
    let hooks = GraphHooks(on: live)
    for index in graph.effects.indices { start(index) }
    DispatchQueue.concurrentPerform(iterations: threads.count) { thread in
      for round in 0..<rounds {
        for op in threads[thread] { perform(op, round: round) }
      }
    }
    var failures = live.computationFailures()
    let (tokens, runs, _) = effects.snapshot()
    var reads: [[GraphInput]] = []
    for index in graph.effects.indices where tokens[index] != nil {
      failures += live.check(effect: index, run: runs[index])
      reads.append(runs[index].compactMap { if case .read(let input, _) = $0 { input } else { nil } })
    }
    failures += hooks.failuresWhileObserved(reads: reads)
    for token in tokens { token?.cancel() }
    failures += hooks.failuresOnceUnobserved(operations: threads.flatMap { $0 })
    failures += hooks.failuresOfOrder
    hooks.cancel()
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
    effects.record(live.runEffect(index), of: index, generation: generation)
  }
}
