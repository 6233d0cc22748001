// The field's reactive-graph benchmark suite (milomg/js-reactivity-benchmark), ported
// to swift-tracking (see Tests/ReactivitySuite, linked here as Sources/ReactivitySuite):
// each case timed as the suite times it, beside the same work written by hand, and
// checked against the suite's own figures (values, effect runs, computations).
//
//   swift run -c release --package-path Benchmarks reactivity            # full run
//   swift run -c release --package-path Benchmarks reactivity --quick    # CI: checks, few samples
//   ... reactivity --filter diamond                                     # cases whose name contains it
//   ... reactivity --filter createComputations --cases                  # and each S.js case's own time
//
// Exits with status 1 if any check fails.
import Foundation
import ReactivitySuite
import Tracking

struct Options {
  var quick = false
  var filter: String?
  /// Prints each S.js case's time under its group's sum.
  var cases = false

  init(_ arguments: [String]) {
    var iterator = arguments.makeIterator()
    while let argument = iterator.next() {
      switch argument {
      case "--quick", "--smoke": quick = true
      case "--filter": filter = iterator.next()
      case "--cases": cases = true
      case "-h", "--help":
        print("usage: reactivity [--quick] [--filter SUBSTRING] [--cases]")
        exit(0)
      default:
        FileHandle.standardError.write(Data("unknown argument \(argument)\n".utf8))
        exit(2)
      }
    }
  }

  func includes(_ name: String) -> Bool { filter.map { name.contains($0) } ?? true }
}

let options = Options(Array(CommandLine.arguments.dropFirst()))
var failures: [String] = []

func milliseconds(_ duration: Duration) -> Double {
  Double(duration.components.seconds) * 1e3 + Double(duration.components.attoseconds) / 1e15
}

/// The fastest of `samples` timings of `body`.
func fastest(_ samples: Int, _ body: () -> Void) -> Double {
  var best = Double.infinity
  for _ in 0..<samples {
    let start = ContinuousClock.now
    body()
    best = min(best, milliseconds(ContinuousClock.now - start))
  }
  return best
}

@MainActor func check(_ ok: Bool, _ what: @autoclosure () -> String) -> String {
  if ok { return "✓" }
  failures.append(what())
  return "✗"
}

func row(_ name: String, _ ours: Double?, _ hand: Double?, _ checked: String) {
  func cell(_ value: Double?) -> String { value.map { String(format: "%.2f", $0) } ?? "—" }
  let ratio = ours.flatMap { ours in hand.map { String(format: "%.1f×", ours / $0) } } ?? ""
  print("| \(name) | \(cell(ours)) | \(cell(hand)) | \(ratio) | \(checked) |")
}

print("# The reactivity suite (milomg/js-reactivity-benchmark) on swift-tracking")
print("")
print("- mode: \(options.quick ? "quick (checks; few samples: times are not meaningful)" : "the suite's own iteration counts and samples")")
print("- times: ms, as the suite reports them (Kairo: fastest sample of 500 iterations; cellx: 10 updates; dynamic: fastest run; S.js: sums of fastest runs)")
print("")
print("| case | ours (ms) | by hand (ms) | ours/hand | checks |")
print("|---|---:|---:|---:|:---:|")
let started = ContinuousClock.now

// MARK: Kairo

for kairo in KairoCase.all where options.includes(kairo.name) {
  // The counts: three iterations after the build, as the suite's warm-up runs them.
  var checked = "✓"
  do {
    let graph = SuiteGraph()
    let iteration = kairo.build(graph)
    graph.resetCounts()
    for _ in 0..<3 { try iteration() }
    checked = check(
      graph.effectRuns == kairo.expected.effects && graph.computations == kairo.expected.computations,
      "\(kairo.name): \(graph.effectRuns) effect runs and \(graph.computations) computations, expected \(kairo.expected.effects) and \(kairo.expected.computations)"
    )
    graph.cleanup()
  } catch {
    checked = check(false, "\(kairo.name): \(error)")
  }
  let samples = options.quick ? 1 : 10
  let perSample = options.quick ? 10 : KairoCase.iterationsPerSample
  let graph = SuiteGraph()
  let iteration = kairo.build(graph)
  for _ in 0..<3 { try? iteration() }
  let ours = fastest(samples) { for _ in 0..<perSample { try? iteration() } }
  graph.cleanup()
  let byHand = kairo.byHand()
  let hand = fastest(samples) { for _ in 0..<perSample { byHand() } }
  row(kairo.name, ours, hand, checked)
}

// MARK: cellx

for (layers, before, after) in CellxCase.expected where options.includes("cellx\(layers)") {
  if options.quick && layers > 1000 { continue }
  var total = 0.0
  var checked = "✓"
  for _ in 0..<(options.quick ? 1 : 10) {
    let graph = SuiteGraph()
    let update = CellxCase.build(graph, layers: layers)
    let start = ContinuousClock.now
    let values = update()
    total += milliseconds(ContinuousClock.now - start)
    if checked == "✓" {
      checked = check(
        values.before == before && values.after == after,
        "cellx\(layers): before \(values.before), after \(values.after); expected \(before), \(after)")
    }
    graph.cleanup()
  }
  let byHand = CellxCase.byHand(layers: layers)
  var hand = 0.0
  for _ in 0..<(options.quick ? 1 : 10) {
    let start = ContinuousClock.now
    sink(byHand())
    hand += milliseconds(ContinuousClock.now - start)
  }
  row("cellx\(layers)", total, hand, checked)
}

// MARK: Dynamic graphs

for config in DynamicGraphConfig.perfTests where options.includes(config.description) {
  let graph = SuiteGraph()
  let dynamic = DynamicGraph(config, in: graph)
  var sum = 0.0
  var count = 0
  let repeats = options.quick ? 1 : 5
  // The suite counts after warm-up runs; the quick mode puts the graph in their state
  // without running them.
  if options.quick {
    dynamic.settleAsAfterARun(iterations: config.iterations)
  } else {
    for _ in 0..<3 { sink(dynamic.run(iterations: config.iterations)) }
  }
  let time = fastest(repeats) {
    dynamic.resetCount()
    sum = dynamic.run(iterations: config.iterations)
    count = dynamic.computations
  }
  var ok = true
  if let expected = config.expectedSum { ok = ok && sum == expected }
  if let expected = config.expectedCount { ok = ok && count == expected }
  let checked = check(
    ok,
    "\(config): sum \(sum), computations \(count); expected \(config.expectedSum.map { "\($0)" } ?? "-"), \(config.expectedCount.map { "\($0)" } ?? "-")"
  )
  graph.cleanup()
  row(config.description, time, nil, checked)
}

// MARK: S.js

for group in SBenchCase.Group.allCases where options.includes(group.rawValue) {
  var total = 0.0
  var handTotal: Double? = nil
  var checked = "✓"
  var caseRows: [(String, Double, Double?)] = []
  let samples = options.quick ? 1 : 10
  for sCase in SBenchCase.all where sCase.group == group {
    let count = options.quick ? max(1, sCase.count / 100) : sCase.count
    let signals = options.quick ? max(sCase.signals / 100, sCase.signals > 0 ? 1000 : 0) : sCase.signals
    func once() -> (Double, Int) {
      let graph = SuiteGraph()
      let sources = (0..<max(signals, 1)).map { graph.signal($0) }
      for source in sources { _ = (source.value, source.value, source.value) }
      let start = ContinuousClock.now
      let update = sCase.body(graph, sources, count)
      graph.resetCounts()
      update()
      let runs = graph.effectRuns
      graph.cleanup()
      return (milliseconds(ContinuousClock.now - start), runs)
    }
    var best = Double.infinity
    for _ in 0..<samples {
      let (time, runs) = once()
      best = min(best, time)
      if let expected = sCase.expectedEffectRuns?(count), runs != expected, checked == "✓" {
        checked = check(false, "\(sCase.name): \(runs) effect runs, expected \(expected)")
      }
    }
    total += best
    var hand: Double? = nil
    if let byHand = sCase.byHand {
      hand = fastest(samples) { byHand(count) }
      handTotal = (handTotal ?? 0) + hand!
    }
    caseRows.append((sCase.name, best, hand))
  }
  row(group.rawValue, total, handTotal, checked)
  if options.cases {
    for (name, time, hand) in caseRows { row("  \(name)", time, hand, "") }
  }
}

print("")
print(String(format: "Total: %.1f s.", milliseconds(ContinuousClock.now - started) / 1e3))
if !failures.isEmpty {
  print("")
  print("Failed checks:")
  for failure in failures { print("- \(failure)") }
  exit(1)
}
