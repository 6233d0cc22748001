import DerivedGraphScripts
import Foundation
import PropertyBased
import Testing

@testable import Tracking

/// The actor the effects of ``ScheduledDerivedGraphWorld`` are isolated to.
@globalActor actor GraphActor {
  static let shared = GraphActor()
}

/// Random derived graphs whose effects are isolated to an actor (``GraphActor``), used
/// from threads and from that actor at once. A change made off the actor reaches an
/// effect as a run scheduled there (coalesced with the changes made before it runs); a
/// change made on the actor runs an effect with immediate delivery where it happens.
/// Each effect is one of five kinds: `observe` (immediate), `observeCoalesced` (heard at
/// will-set, run later), `withContinuousTracking` with immediate or coalesced delivery
/// and will-set, did-set or both, or the iteration of a ``TrackedValues`` sequence by a
/// task on the actor (its runs are the iterator's, woken by the changes).
///
/// When every thread is done, the runs still to come are let happen, on the actor, until
/// none is left: the scheduled runs, the iterations' wake-ups and their first values.
/// Then no effect may be stale (a change no run will follow: lost), and every live
/// effect's latest run read the values that are there at the end. The check is made on
/// the actor, where every run happens, so no run is under way meanwhile.
///
/// An effect that writes a signal of its own (``GraphEffect/write``) writes it in its
/// run, on the actor. The write does not reach the run that made it, nor the runs it is
/// nested in (the own-writes rule), so a read made before it may be left behind: such
/// a run is accounted for by the values its reads and writes imply, as in the threaded
/// graphs (`LiveDerivedGraph.check(effect:run:)`).
@Suite("Properties: random derived graphs with effects on an actor", .timeLimit(.minutes(2)))
struct DerivedGraphScheduledPropertyTests {
  @Test(.shrinking(false)) func everyScheduledEffectEndsConsistent() async {
    let scripts = DerivedGraphGenerator.threadedScripts()
    await propertyCheck(count: ThreadedDerivedGraphScript.scriptCount, input: scripts) { script in
      let world = ScheduledDerivedGraphWorld(script.graph)
      let failures = await world.run(script.threads, rounds: ThreadedDerivedGraphScript.rounds)
      #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))\nscript:\n\(script)")
    }
  }
}

/// Runs a graph's operations from threads and from ``GraphActor``, with effects isolated
/// to the actor, then compares the end state with the values computed by hand.
/// Thread-safe: the effects are in their slots (see ``EffectSlots``), and the rest is
/// set before the operations start.
final class ScheduledDerivedGraphWorld: @unchecked Sendable {
  private let graph: LiveDerivedGraph
  /// Each live effect's observation or iteration, and what its latest run read and
  /// wrote, in order.
  private let effects: EffectSlots<Handle, [EffectRunEvent]>

  init(_ script: DerivedGraphScript) {
    graph = LiveDerivedGraph(script)
    effects = EffectSlots(count: script.effects.count, noRun: [])
  }

  /// Runs the first thread's operations on the actor (yielding it between rounds, so
  /// that scheduled runs happen meanwhile) and the others on threads of their own, each
  /// `rounds` times, all at once; then lets the scheduled runs happen and returns what
  /// does not agree with the values computed by hand.
  ///
  /// The graph's observed/unobserved hooks are checked too: at the end, what the live
  /// effects read is observed (see ``GraphHooks``).
  func run(_ threads: [[GraphOp]], rounds: Int) async -> [String] {
    let hooks = GraphHooks(on: graph)
    defer { hooks.cancel() }
    for index in graph.script.effects.indices { start(index) }
    async let onTheActor: Void = runOnTheActor(threads[0], rounds: rounds)
    await LiveDerivedGraph.onThreads(Array(threads.dropFirst()), rounds: rounds) { op, round in
      self.perform(op, round: round)
    }
    await onTheActor
    let failures = await settleAndCheck(hooks)
    for handle in effects.snapshot().handles { handle?.cancel() }
    return failures + hooks.failuresOfOrder
  }

  @GraphActor private func runOnTheActor(_ ops: [GraphOp], rounds: Int) async {
    for round in 0..<rounds {
      for op in ops { perform(op, round: round) }
      await Task.yield()
    }
  }

  /// A live effect: an observation, or a task iterating a sequence (with its
  /// iterator's signal once the task has started).
  enum Handle {
    case observation(TrackingToken)
    case iteration(Task<Void, Never>, RunSignal?)

    /// The reaction whose runs are the effect's, once there is one.
    var reaction: Reaction? {
      switch self {
      case .observation(let token): token.reaction
      case .iteration(_, let signal): signal?.reaction
      }
    }

    func cancel() {
      switch self {
      case .observation(let token): token.cancel()
      case .iteration(let task, _): task.cancel()
      }
    }
  }

  /// On the actor: lets every run still to come happen (each may find values that
  /// another thread's late change made stale, and so on, but nothing writes any more),
  /// then compares each live effect with the values at the end. Runs happen only on
  /// this actor, so none is under way while this function checks without suspending.
  ///
  /// A run is to come while an effect is being started (an iteration's task has not
  /// begun), or its reaction has a run scheduled or its owner (the iterator) was told
  /// that one is needed (both `scheduled`).
  ///
  /// An iteration whose reaction says its owner was told, while the iterating task
  /// still waits for a wake-up, lost that wake-up: this fails at once rather than wait.
  /// A test cancelled by its time limit stops waiting too.
  @GraphActor private func settleAndCheck(_ hooks: GraphHooks) async -> [String] {
    while true {
      let (handles, _, starting) = effects.snapshot()
      var lostWakeUps: [String] = []
      for (index, handle) in handles.enumerated() {
        guard case .iteration(_, let signal?) = handle, Self.hasRunToCome(signal.reaction), signal.hasWaiter
        else { continue }
        lostWakeUps.append("e\(index)'s iterator was told of a change, and its task still waits for it")
      }
      if !lostWakeUps.isEmpty { return lostWakeUps }
      guard starting || handles.contains(where: { $0?.reaction.map(Self.hasRunToCome) == true }) else { break }
      if Task.isCancelled { return ["the runs still to come had not happened when the test was cancelled"] }
      await Task.yield()
    }
    var failures = graph.computationFailures()
    let (live, runs, _) = effects.snapshot()
    var reads: [[GraphInput]] = []
    for index in graph.script.effects.indices {
      guard let reaction = live[index]?.reaction else { continue }
      let (stale, running) = reaction.state.withLock { ($0.isStale, $0.runningThread != 0) }
      if running { failures.append("e\(index) has a run under way off its actor") }
      if stale {
        failures.append("e\(index) is stale, and no run is to come (a change lost)")
        continue
      }
      failures += graph.check(effect: index, run: runs[index])
      reads.append(runs[index].compactMap { if case .read(let input, _) = $0 { input } else { nil } })
    }
    return failures + hooks.failuresWhileObserved(reads: reads)
  }

  /// Whether `reaction` has a run scheduled, or its owner was told that it needs one.
  private static func hasRunToCome(_ reaction: Reaction) -> Bool {
    reaction.state.withLock { $0.scheduled }
  }

  private func perform(_ op: GraphOp, round: Int) {
    graph.perform(op, round: round, cancel: { effects.take($0)?.cancel() }, restart: start)
  }

  /// Starts effect `index` unless it is live or being started: a new observation, whose
  /// first run is now when this is the actor, else scheduled there; or a new task that
  /// iterates a new sequence on the actor (its first value is its first run).
  ///
  /// Its kind goes by its number and whether it takes events: a plain effect is
  /// `observe` (immediate), `observeCoalesced` (will-set, coalesced) or an iteration;
  /// one that takes events hears will-sets, did-sets or both, with immediate or
  /// coalesced delivery.
  private func start(_ index: Int) {
    guard let generation = effects.beginStart(index) else { return }
    let run: @GraphActor @Sendable () -> Void = { [unowned self] in self.runEffect(index, generation: generation) }
    let handle: Handle
    if graph.script.effects[index].takesEvents {
      let options: [TrackingOptions] = [.didSet, .willSet, [.willSet, .didSet]]
      handle = .observation(
        withContinuousTracking(
          options: options[index % 3], delivery: index % 2 == 0 ? .immediate : .coalesced, firstRun: .immediate
        ) { @GraphActor _ in run() })
    } else if index % 3 == 0 {
      handle = .observation(observe { @GraphActor in run() })
    } else if index % 3 == 1 {
      handle = .observation(observeCoalesced { @GraphActor in run() })
    } else {
      // Made under the slots' lock: the task finds its handle kept.
      effects.keep(.iteration(Task { @GraphActor in await self.iterate(run, index: index) }, nil), for: index, finished: false)
      return
    }
    effects.keep(handle, for: index)
  }

  /// Iterates a sequence whose closure runs effect `index`, on the actor, until the
  /// task is cancelled. Its iterator's signal is kept with its task before the first
  /// value (no suspension in between).
  @GraphActor private func iterate(_ run: @escaping @GraphActor @Sendable () -> Void, index: Int) async {
    var values = TrackedValues { @GraphActor in run() }.makeAsyncIterator()
    effects.finishStart(index) { handle in
      if case .iteration(let task, nil) = handle { handle = .iteration(task, values.signal) }
    }
    while await values.next() != nil {}
  }

  @GraphActor private func runEffect(_ index: Int, generation: Int) {
    effects.record(graph.runEffect(index), of: index, generation: generation)
  }
}
