import CHeapStats

// MARK: - Keeping the optimizer honest

/// Consumes a value so that the work producing it cannot be removed
/// (the same trick as package-benchmark's `blackHole`: an unoptimized, opaque call).
@_optimize(none) @inline(never)
public func consume<T>(_ value: T) {}

/// Returns its argument through a call the optimizer cannot see into, so that inputs
/// (objects, counts) are not known constants at the benchmark's call site.
@_optimize(none) @inline(never)
public func opaque<T>(_ value: T) -> T { value }

// MARK: - What is measured

/// The four implementations compared.
public enum Flavor: String, CaseIterable, Sendable {
  /// A plain final class: the floor.
  case plain
  /// Apple's `@Observable` and `withObservationTracking` (module `Observation`).
  case apple
  /// `@Trackable` and `withTracking` (this project).
  case ours
  /// OpenCombine: `ObservableObject` with `@Published` properties.
  case combine

  public var title: String {
    switch self {
    case .plain: "plain"
    case .apple: "Apple"
    case .ours: "ours"
    case .combine: "OpenCombine"
    }
  }
}

/// Brackets the timed part of a workload. package-benchmark passes its
/// `startMeasurement` / `stopMeasurement`; the `compare` tool passes a clock.
public struct Stopwatch {
  let startBody: () -> Void
  let stopBody: () -> Void

  public init(start: @escaping () -> Void, stop: @escaping () -> Void) {
    startBody = start
    stopBody = stop
  }

  @inline(never) public func start() { startBody() }
  @inline(never) public func stop() { stopBody() }
}

/// Runs `n` repetitions of one operation for one flavour. Setup happens before
/// `watch.start()` and teardown after `watch.stop()`; each is called exactly once.
public typealias TimedWorkload = @Sendable (_ n: Int, _ watch: Stopwatch) -> Void

/// Measures something other than time (bytes, counts) over `n` repetitions and
/// returns it per repetition.
public typealias ValueWorkload = @Sendable (_ n: Int) -> Double

public enum Measurement: Sendable {
  /// Nanoseconds per repetition.
  case time([Flavor: TimedWorkload])
  /// A value per repetition, in `unit`.
  case value(unit: String, [Flavor: ValueWorkload])
}

/// One row of the comparison.
public struct Operation: Sendable {
  /// Short identifier, also the package-benchmark name prefix (and `--filter` target).
  public let name: String
  /// What one repetition does.
  public let summary: String
  /// Repetitions per sample in a full run of `compare`.
  public let iterations: Int
  /// Repetitions per sample in `--quick` (smoke) mode.
  public let quickIterations: Int
  public let measurement: Measurement
  /// For rows that measure only `ours` in a variant (relay to Apple on): the row whose
  /// plain / Apple / OpenCombine figures this one is compared with.
  public let baseline: String?

  public init(
    _ name: String, _ summary: String, iterations: Int, quick: Int = 50,
    baseline: String? = nil, _ measurement: Measurement
  ) {
    self.name = name
    self.summary = summary
    self.iterations = iterations
    self.quickIterations = quick
    self.baseline = baseline
    self.measurement = measurement
  }

  public var flavors: [Flavor] {
    switch measurement {
    case .time(let w): Flavor.allCases.filter { w[$0] != nil }
    case .value(_, let w): Flavor.allCases.filter { w[$0] != nil }
    }
  }
}

// MARK: - Heap statistics

/// Bytes currently handed out by the C allocator (chunk headers and rounding
/// included): glibc's `mallinfo2()`. See RESULTS.md for the method.
@inline(never)
public func heapBytesInUse() -> Int { Int(heap_stats_bytes_in_use()) }

/// `malloc_usable_size` of the allocation holding `object` (its instance only).
public func usableSize(of object: AnyObject) -> Int {
  Int(heap_stats_usable_size(UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())))
}

/// Heap bytes added per item by making `count` items (kept alive while measuring).
@inline(__always)
func heapGrowth<T>(_ count: Int, _ make: () -> T) -> Double {
  var keep: [T] = []
  keep.reserveCapacity(count)
  _ = make()  // type metadata, lazy globals and the like, outside the measurement
  let before = heapBytesInUse()
  for _ in 0..<count { keep.append(make()) }
  let after = heapBytesInUse()
  consume(keep)
  return Double(after - before) / Double(count)
}

/// Heap bytes added per repetition of `body` while `state` stays alive.
@inline(__always)
func heapGrowth<S>(_ count: Int, of state: S, _ body: (S) -> Void) -> Double {
  let before = heapBytesInUse()
  for _ in 0..<count { body(state) }
  let after = heapBytesInUse()
  consume(state)
  return Double(after - before) / Double(count)
}
