// package-benchmark suite: the same operations as the `compare` table
// (Sources/BenchmarkSupport/Operations.swift), one benchmark per operation and flavour,
// named "<operation> [<flavour>]".
//
//   swift package --package-path Benchmarks --disable-sandbox benchmark
//   swift package --package-path Benchmarks --disable-sandbox benchmark --filter 'cycle.*'
//
// Every benchmark runs `iterations` repetitions per sample (scalingFactor .kilo, so
// timings read per repetition for the 1 000-repetition rows). Memory rows are
// reported as custom metrics in bytes per item; malloc counters come from
// package-benchmark's malloc interposer.
import Benchmark
import BenchmarkSupport
import Foundation

let benchmarks: @Sendable () -> Void = {
  /// Repetitions per package-benchmark sample: 1 000, the `.kilo` scaling factor.
  let repetitions = BenchmarkScalingFactor.kilo
  // BENCHMARK_QUICK=1 runs every benchmark for 2 samples of few repetitions (smoke).
  let quick = ProcessInfo.processInfo.environment["BENCHMARK_QUICK"] == "1"
  Benchmark.defaultConfiguration = .init(
    metrics: [.wallClock, .mallocCountTotal],
    scalingFactor: repetitions,
    maxDuration: quick ? .milliseconds(50) : .seconds(2),
    maxIterations: quick ? 2 : 1_000
  )

  for operation in Operation.all {
    switch operation.measurement {
    case .time(let workloads):
      for flavor in Flavor.allCases {
        guard let workload = workloads[flavor] else { continue }
        // The few rows whose own count matters (10^5 pending scopes) keep it.
        let fixed = operation.iterations > 10_000 && operation.name.hasPrefix("pending-scopes")
        Benchmark(
          "\(operation.name) [\(flavor.rawValue)]",
          configuration: .init(scalingFactor: fixed ? .one : repetitions)
        ) { benchmark in
          let n = fixed ? (quick ? operation.quickIterations : operation.iterations) : benchmark.scaledIterations.count
          workload(n, Stopwatch(start: benchmark.startMeasurement, stop: benchmark.stopMeasurement))
        }
      }
    case .value(let unit, let workloads):
      for flavor in Flavor.allCases {
        guard let workload = workloads[flavor] else { continue }
        // Rates ("values/s") are better when larger; sizes and counts when smaller.
        let rate = unit.hasSuffix("/s")
        let metric = BenchmarkMetric.custom(
          unit.contains("/") ? unit : "\(unit) per item", polarity: rate ? .prefersLarger : .prefersSmaller,
          useScalingFactor: false)
        Benchmark(
          "\(operation.name) [\(flavor.rawValue)]",
          configuration: .init(
            metrics: [metric, .mallocCountTotal], scalingFactor: .one, maxDuration: .seconds(1), maxIterations: 3)
        ) { benchmark in
          let n = quick ? operation.quickIterations : operation.iterations
          benchmark.measurement(metric, Int(workload(n).rounded()))
        }
      }
    }
  }
}
