import Foundation
import ReactivitySuite
import Testing
import Tracking

/// Runs CPU-heavy work on a thread of its own and waits for it without blocking: a
/// synchronous test would hold one of the concurrency runtime's threads (two on a
/// two-core machine) for up to a minute in a debug build, and starve the tasks of the
/// tests running beside it (a background retry that a persistence test waits for).
private func onItsOwnThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
  await withCheckedContinuation { continuation in
    let thread = Thread { continuation.resume(returning: body()) }
    thread.stackSize = 64 << 20  // the graphs are hundreds of layers deep
    thread.start()
  }
}

/// The field's reactive-graph suite (milomg/js-reactivity-benchmark), ported in
/// Tests/ReactivitySuite: its cases' own checks (values, effect runs, computations),
/// on the suite's graphs, at the suite's sizes where they are cheap enough for a debug
/// build. The benchmark (`reactivity`) runs every case at full size with the same checks.
@Suite("The reactivity suite's figures")
struct ReactivitySuiteTests {
  @Test(.disabled(if: isRunningUnderThreadSanitizer, "single-threaded; checked by reactivity --quick"), arguments: KairoCase.all.map(\.name))
  func kairoCaseCounts(_ name: String) throws {
    let kairo = KairoCase.all.first { $0.name == name }!
    let graph = SuiteGraph()
    let iteration = kairo.build(graph)
    graph.resetCounts()
    for _ in 0..<3 { try iteration() }
    #expect(graph.effectRuns == kairo.expected.effects, "effect runs")
    #expect(graph.computations == kairo.expected.computations, "computations")
    graph.cleanup()
  }

  @Test(.disabled(if: isRunningUnderThreadSanitizer, "single-threaded; checked by reactivity --quick"), arguments: [1000, 2500])
  func cellxValues(_ layers: Int) async {
    let expected = CellxCase.expected.first { $0.layers == layers }!
    let (values, computations, effectRuns) = await onItsOwnThread {
      let graph = SuiteGraph()
      let update = CellxCase.build(graph, layers: layers)
      graph.resetCounts()
      let values = update()
      defer { graph.cleanup() }
      return (values, graph.computations, graph.effectRuns)
    }
    #expect(values.before == expected.before)
    #expect(values.after == expected.after)
    // Each computed recomputes at most once, and each effect runs at most once.
    #expect(computations <= 4 * layers)
    #expect(effectRuns <= 4 * layers)
  }

  /// The suite's own small graphs (frameworks.test.ts), counts included (they count the
  /// build too).
  @Test func smallDynamicGraphs() {
    func config(width: Int = 3, layers: Int = 3, staticFraction: Double = 1, readFraction: Double = 1)
      -> DynamicGraphConfig
    {
      DynamicGraphConfig(
        width: width, totalLayers: layers, staticFraction: staticFraction, nSources: 2,
        readFraction: readFraction, iterations: 1)
    }
    let cases: [(DynamicGraphConfig, iterations: Int, sum: Double, count: Int)] = [
      (config(), 2, 16, 11),
      (config(readFraction: 2 / 3), 10, 72, 41),
      (config(width: 4, layers: 2, staticFraction: 0.5), 10, 72, 22),
    ]
    for (config, iterations, sum, count) in cases {
      let graph = SuiteGraph()
      let dynamic = DynamicGraph(config, in: graph)
      #expect(dynamic.run(iterations: iterations) == sum, "\(config)")
      #expect(dynamic.computations == count, "\(config)")
      graph.cleanup()
    }
  }

  /// Two of the suite's full-size dynamic graphs, with its expected sums and counts: a
  /// dynamic one (a quarter of its computeds drop a source depending on a value) and a
  /// 500-layer static one (whose sum passes 10^241).
  @Test(.disabled(if: isRunningUnderThreadSanitizer, "single-threaded; checked by reactivity --quick"), arguments: [1, 4])
  func fullSizeDynamicGraph(_ index: Int) async {
    let config = DynamicGraphConfig.perfTests[index]
    let (sum, computations) = await onItsOwnThread {
      let graph = SuiteGraph()
      let dynamic = DynamicGraph(config, in: graph)
      // The suite counts after warm-up runs.
      dynamic.settleAsAfterARun(iterations: config.iterations)
      dynamic.resetCount()
      let sum = dynamic.run(iterations: config.iterations)
      defer { graph.cleanup() }
      return (sum, dynamic.computations)
    }
    #expect(sum == config.expectedSum)
    #expect(computations == config.expectedCount)
  }
}
