import DerivedGraphScripts
import Foundation
import PropertyBased
import Testing
import Tracking

/// Random derived graphs drawn by a ``RenderLoop``: each effect is a component, and
/// the graph's operations run from threads and from the main actor at once. A change,
/// on any thread, marks the components that read it dirty; the main actor runs a cycle
/// after each of its rounds, and unregisters and registers components again (the
/// script's cancellations and restarts).
///
/// When every thread is done, the main actor runs cycles until no component is dirty
/// (nothing writes any more, so that ends). Then every component's latest run read the
/// values that are there at the end: a change whose mark was lost leaves a component
/// with an old read and nothing to run it again.
///
/// The effects' own writes are left out, as in ``DerivedGraphScheduledPropertyTests``.
@Suite("Properties: random derived graphs drawn by a render loop", .timeLimit(.minutes(2)))
struct DerivedGraphRenderLoopPropertyTests {
  @Test(.shrinking(false)) func everyComponentEndsConsistent() async {
    let scripts = DerivedGraphGenerator.threadedScripts()
    await propertyCheck(count: ThreadedDerivedGraphScript.scriptCount, input: scripts) { script in
      let world = await RenderLoopGraphWorld(script.graph)
      let failures = await world.run(script.threads, rounds: ThreadedDerivedGraphScript.rounds)
      #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))\nscript:\n\(script)")
    }
  }
}

/// Runs a graph's operations from threads and from the main actor, with a render loop's
/// components as its effects, then compares the end state with the values computed by
/// hand. The loop and the components' identifiers are the main actor's; the
/// components' latest reads are under `lock`, and the rest is set before the operations
/// start.
final class RenderLoopGraphWorld: @unchecked Sendable {
  private let graph: LiveDerivedGraph
  private let lock = NSLock()
  /// Under `lock`: what each component's latest run read, in order (a component
  /// registered again runs at once, and its reads replace these).
  private var lastRuns: [[(GraphInput, Int)]]
  @MainActor private let loop = RenderLoop()
  /// Each effect's component, while it is registered.
  @MainActor private var components: [RenderLoop.ComponentID?]

  @MainActor init(_ script: DerivedGraphScript) {
    graph = LiveDerivedGraph(script)
    lastRuns = Array(repeating: [], count: script.effects.count)
    components = Array(repeating: nil, count: script.effects.count)
  }

  /// Runs the first thread's operations on the main actor (a cycle after each round,
  /// and a suspension, so that the other threads' changes land between cycles) and the
  /// others' on threads of their own (where their cancellations and restarts do
  /// nothing: those are the main actor's), each `rounds` times, all at once; then runs
  /// cycles until no component is dirty and returns what does not agree with the
  /// values computed by hand.
  ///
  /// The graph's observed/unobserved hooks are checked too (see ``GraphHooks``): at
  /// the end, what the registered components read is observed; once they are
  /// unregistered and the values left unobserved have retired, nothing unexplained is.
  func run(_ threads: [[GraphOp]], rounds: Int) async -> [String] {
    let hooks = GraphHooks(on: graph)
    defer { hooks.cancel() }
    await registerAll()
    async let onTheMainActor: Void = runOnTheMainActor(threads[0], rounds: rounds)
    await LiveDerivedGraph.onThreads(Array(threads.dropFirst()), rounds: rounds) { op, round in
      self.graph.perform(op, round: round)  // a cancellation or a restart does nothing there
    }
    await onTheMainActor
    let failures = await settleAndCheck(hooks)
    return failures + hooks.failuresOnceUnobserved(operations: threads.flatMap { $0 }) + hooks.failuresOfOrder
  }

  @MainActor private func registerAll() {
    for index in graph.script.effects.indices { register(index) }
  }

  @MainActor private func runOnTheMainActor(_ ops: [GraphOp], rounds: Int) async {
    for round in 0..<rounds {
      for op in ops {
        graph.perform(
          op, round: round,
          cancel: { effect in
            if let id = components[effect] { loop.unregister(id) }
            components[effect] = nil
          },
          restart: { effect in
            if components[effect] == nil { register(effect) }
          })
      }
      _ = loop.runCycle()
      await Task.yield()
    }
  }

  /// Runs cycles until no component is dirty (each may find values that another
  /// thread's late change made stale, but nothing writes any more), then compares each
  /// registered component's latest run with the values at the end.
  @MainActor private func settleAndCheck(_ hooks: GraphHooks) -> [String] {
    while loop.dirtyCount > 0 { _ = loop.runCycle() }
    var failures = graph.computationFailures()
    let runs = lock.withLock { lastRuns }
    var reads: [[GraphInput]] = []
    for index in graph.script.effects.indices where components[index] != nil {
      failures += graph.staleReads(runs[index]).map { "e\(index)'s latest run read \($0)" }
      reads.append(runs[index].map(\.0))
    }
    failures += hooks.failuresWhileObserved(reads: reads)
    for case let id? in components { loop.unregister(id) }
    return failures
  }

  /// Registers effect `index` as a new component, which runs once now.
  @MainActor private func register(_ index: Int) {
    components[index] = loop.register(name: "e\(index)") { [unowned self] in self.runComponent(index) }
  }

  @MainActor private func runComponent(_ index: Int) {
    let reads = graph.readsOfEffect(index)
    lock.withLock { lastRuns[index] = reads }
  }
}
