// Prints one markdown table: every operation for plain / Apple / ours / OpenCombine,
// best of N samples, with the ratios ours/Apple and ours/plain.
//
//   swift run -c release --package-path Benchmarks compare            # full run
//   swift run -c release --package-path Benchmarks compare --quick    # smoke run (CI)
//   ... compare --filter cycle --rounds 9                             # a subset, more samples
//
// Timing: each sample runs an operation `iterations` times between two readings of
// ContinuousClock; the figure is the fastest sample divided by the iterations. Flavours
// are interleaved round by round so drift (other processes, frequency) hits all alike.
import BenchmarkSupport
import Foundation

struct Options {
  var quick = false
  var rounds = 7
  var filter: String?
  var scale = 1.0
  var iterations: Int?
  var flavors = Set(Flavor.allCases)

  init(_ arguments: [String]) {
    var iterator = arguments.makeIterator()
    while let argument = iterator.next() {
      switch argument {
      case "--quick", "--smoke":
        quick = true
      case "--rounds":
        rounds = iterator.next().flatMap(Int.init) ?? rounds
      case "--filter":
        filter = iterator.next()
      case "--flavor":
        flavors = Set(iterator.next().map { $0.split(separator: ",").compactMap { Flavor(rawValue: String($0)) } } ?? [])
      case "--iterations":
        iterations = iterator.next().flatMap(Int.init)
      case "--scale":
        scale = iterator.next().flatMap(Double.init) ?? scale
      case "-h", "--help":
        print(
          """
          usage: compare [--quick] [--rounds N] [--filter SUBSTRING] [--flavor LIST] [--scale FACTOR] [--iterations N]
            --quick    run every operation once with few iterations (smoke test)
            --rounds   samples per operation and flavour; the best is reported (default 7)
            --filter   only the operation named SUBSTRING if there is one, else those
                       whose name contains SUBSTRING
            --flavor   only these flavours, comma-separated: plain,apple,ours,combine
            --scale    multiply every operation's iteration count (default 1)
            --iterations  repetitions per sample for every operation (overrides --scale)
          Profiling one row: valgrind --tool=callgrind .build/release/compare \\
            --filter cycle.1 --flavor ours --rounds 1 --iterations 10000
          """)
        exit(0)
      default:
        FileHandle.standardError.write(Data("unknown argument \(argument)\n".utf8))
        exit(2)
      }
    }
    if quick { rounds = 1 }
  }
}

final class Timer {
  var started = ContinuousClock.now
  var elapsed = Duration.zero
  lazy var stopwatch = Stopwatch(
    start: { [unowned self] in self.started = ContinuousClock.now },
    stop: { [unowned self] in self.elapsed = ContinuousClock.now - self.started })
}

extension Duration {
  var nanoseconds: Double {
    Double(components.seconds) * 1e9 + Double(components.attoseconds) / 1e9
  }
}

func format(_ value: Double?, unit: String) -> String {
  guard let value else { return "n/a" }
  let number: String
  switch value {
  case ..<10: number = String(format: "%.2f", value)
  case ..<1000: number = String(format: "%.1f", value)
  default: number = String(format: "%.0f", value)
  }
  return unit.isEmpty ? number : "\(number) \(unit)"
}

func ratio(_ numerator: Double?, _ denominator: Double?) -> String {
  guard let numerator, let denominator, denominator > 0 else { return "" }
  return String(format: "%.2f×", numerator / denominator)
}

func machineDescription() -> String {
  let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
  let model =
    cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
    .map { $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "" }
    ?? "unknown CPU"
  return "\(model), \(ProcessInfo.processInfo.activeProcessorCount) cores, \(ProcessInfo.processInfo.operatingSystemVersionString)"
}

let options = Options(Array(CommandLine.arguments.dropFirst()))
let allOperations = Operation.all + Operation.persistence
let operations = allOperations.filter { operation in
  guard let filter = options.filter else { return true }
  if allOperations.contains(where: { $0.name == filter }) { return operation.name == filter }
  return operation.name.contains(filter)
}

print("# swift-tracking vs Apple Observation vs OpenCombine vs plain properties")
print("")
print("- machine: \(machineDescription())")
print("- date: \(ISO8601DateFormatter().string(from: Date()))")
print(
  "- mode: \(options.quick ? "quick (smoke: 1 sample, few iterations; figures are not meaningful)" : "best of \(options.rounds) samples")"
)
print("- time rows: ns per operation; memory rows: heap bytes (mallinfo2) per item")
print("")
print("| operation | plain | Apple | ours | OpenCombine | ours/Apple | ours/plain |")
print("|---|---:|---:|---:|---:|---:|---:|")

var results: [String: [Flavor: Double]] = [:]
let timer = Timer()
let started = ContinuousClock.now

for operation in operations {
  let iterations =
    options.iterations
    ?? max(1, Int(Double(options.quick ? operation.quickIterations : operation.iterations) * options.scale))
  var best: [Flavor: Double] = [:]
  let unit: String
  switch operation.measurement {
  case .time(let workloads):
    unit = "ns"
    for _ in 0..<options.rounds {
      for flavor in Flavor.allCases {
        guard let workload = workloads[flavor], options.flavors.contains(flavor) else { continue }
        workload(iterations, timer.stopwatch)
        let perOperation = timer.elapsed.nanoseconds / Double(iterations)
        best[flavor] = min(best[flavor] ?? .infinity, perOperation)
      }
    }
  case .value(let valueUnit, let workloads):
    unit = valueUnit
    for flavor in Flavor.allCases {
      guard let workload = workloads[flavor], options.flavors.contains(flavor) else { continue }
      best[flavor] = workload(iterations)
    }
  }
  results[operation.name] = best

  // Variant rows (relay on) measure only `ours`: compare them with their base row.
  var row = best
  if let baseline = operation.baseline, let base = results[baseline] {
    for (flavor, value) in base where flavor != .ours { row[flavor] = value }
  }
  let cells = Flavor.allCases.map { format(row[$0], unit: unit) }
  print(
    "| \(operation.name) — \(operation.summary) | \(cells.joined(separator: " | ")) | \(ratio(row[.ours], row[.apple])) | \(ratio(row[.ours], row[.plain])) |"
  )
}

print("")
print("Total: \(format((ContinuousClock.now - started).nanoseconds / 1e9, unit: "s")) for \(operations.count) operations.")
