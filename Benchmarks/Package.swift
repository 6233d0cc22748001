// swift-tools-version: 6.1
// Benchmarks for swift-tracking, side by side with Apple's Observation, OpenCombine
// and plain properties. A package of its own so that the root package does not
// depend on package-benchmark. See README.md.
import PackageDescription

import class Foundation.ProcessInfo
import struct Foundation.URL

// The root package is a path dependency, whose identity is its folder's name: read it
// rather than assume the clone is called "main".
let rootPackage = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

let package = Package(
  name: "swift-tracking-benchmarks",
  platforms: [.macOS(.v14), .iOS(.v17)],
  dependencies: [
    .package(path: ".."),
    .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
  ],
  targets: [
    // The four flavours of model and every operation, compiled once in one module so
    // that each flavour gets the same optimizer treatment; both drivers below call it.
    // mallinfo2 / malloc_usable_size, which Swift's Glibc module does not export.
    .target(name: "CHeapStats"),
    .target(
      name: "BenchmarkSupport",
      dependencies: [
        "CHeapStats",
        .product(name: "Tracking", package: rootPackage),
        .product(name: "TrackingPersistence", package: rootPackage),
        .product(name: "OpenCombine", package: "OpenCombine"),
      ],
      swiftSettings: exclusivitySettings
    ),
    // package-benchmark suite: `swift package benchmark` (see README.md).
    .executableTarget(
      name: "TrackingBenchmarks",
      dependencies: [
        "BenchmarkSupport",
        .product(name: "Benchmark", package: "benchmark"),
      ],
      path: "Benchmarks/TrackingBenchmarks",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    ),
    // The field's reactive-graph suite (milomg/js-reactivity-benchmark), ported; the
    // folder is a link to the root package's Tests/ReactivitySuite, so that the tests
    // and the benchmark share one copy.
    .target(name: "ReactivitySuite", dependencies: [.product(name: "Tracking", package: rootPackage)]),
    .executableTarget(name: "reactivity", dependencies: ["ReactivitySuite"]),
    // Best-of-N side-by-side table: `swift run -c release compare [--quick]`.
    // Does not link package-benchmark, so its malloc interposer does not distort the
    // byte counts measured here.
    .executableTarget(name: "compare", dependencies: ["BenchmarkSupport"]),
    // The ceiling study (issue 33): the push-pull algorithm, thread-safe, with its graph
    // in manually managed memory; no dependency on the runtime. See its README.md.
    .target(name: "CCeiling"),
    .executableTarget(name: "ceiling", dependencies: ["CCeiling"], exclude: ["README.md"]),
  ],
  swiftLanguageModes: [.v6]
)

/// Release builds check exclusive access to class properties at run time
/// (swift_beginAccess), which is most of the cost of a plain property read. Setting
/// BENCHMARK_UNCHECKED_EXCLUSIVITY=1 builds the models and loops without those checks,
/// to see the bare floor (RESULTS.md reports both). Not a default: apps keep the checks.
var exclusivitySettings: [SwiftSetting] {
  guard ProcessInfo.processInfo.environment["BENCHMARK_UNCHECKED_EXCLUSIVITY"] == "1" else { return [] }
  return [.unsafeFlags(["-enforce-exclusivity=unchecked"])]
}
