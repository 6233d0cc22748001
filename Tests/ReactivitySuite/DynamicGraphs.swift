import Tracking

/// The suite's rectangular dependency graphs (from Reactively's benchmark): layers of
/// computeds over a row of signals, some of them dynamic (they drop one of their
/// sources depending on a value), and one effect that reads some or all of the last
/// layer.
///
/// Values are `Double`s and the arithmetic follows JavaScript's numbers, so that the
/// suite's expected sums (which pass 2^53, and 10^241 in one case) come out exactly.
public struct DynamicGraphConfig: Sendable, CustomStringConvertible {
  public var width: Int
  public var totalLayers: Int
  /// The fraction of computeds that always read all their sources.
  public var staticFraction: Double
  public var nSources: Int
  /// The fraction of the last layer that is read.
  public var readFraction: Double
  public var iterations: Int
  /// The suite's expected result: the sum of the read leaves, and the computations of
  /// one run (`nil` where the suite gives none).
  public var expectedSum: Double?
  public var expectedCount: Int?

  public init(
    width: Int, totalLayers: Int, staticFraction: Double, nSources: Int, readFraction: Double, iterations: Int,
    expectedSum: Double? = nil, expectedCount: Int? = nil
  ) {
    self.width = width
    self.totalLayers = totalLayers
    self.staticFraction = staticFraction
    self.nSources = nSources
    self.readFraction = readFraction
    self.iterations = iterations
    self.expectedSum = expectedSum
    self.expectedCount = expectedCount
  }

  /// The suite's title: `nSources-widthxlayers[ - dynN%][ - lazyN%]`.
  public var description: String {
    func percent(_ n: Double) -> String { "\(Int((n * 100).rounded()))%" }
    let dynamic = staticFraction < 1 ? " - dyn\(percent(1 - staticFraction))" : ""
    let lazy = readFraction < 1 ? " - lazy\(percent(1 - readFraction))" : ""
    return "\(nSources)-\(width)x\(totalLayers)\(dynamic)\(lazy)"
  }

  /// The suite's six configurations (`perfTests`), with its expected results.
  public static let perfTests: [DynamicGraphConfig] = [
    .init(
      width: 10, totalLayers: 5, staticFraction: 1, nSources: 2, readFraction: 0.2, iterations: 600_000,
      expectedSum: 19_199_968, expectedCount: 3_480_000),
    .init(
      width: 10, totalLayers: 10, staticFraction: 3 / 4, nSources: 6, readFraction: 0.2, iterations: 15_000,
      expectedSum: 302_310_782_860, expectedCount: 1_155_000),
    .init(
      width: 1000, totalLayers: 12, staticFraction: 0.95, nSources: 4, readFraction: 1, iterations: 7000,
      expectedSum: 29_355_933_696_000, expectedCount: 1_463_000),
    .init(
      width: 1000, totalLayers: 5, staticFraction: 1, nSources: 25, readFraction: 1, iterations: 3000,
      expectedSum: 1_171_484_375_000, expectedCount: 732_000),
    .init(
      width: 5, totalLayers: 500, staticFraction: 1, nSources: 3, readFraction: 1, iterations: 500,
      expectedSum: 3.0239642676898464e241, expectedCount: 1_246_500),
    .init(
      width: 100, totalLayers: 15, staticFraction: 0.5, nSources: 6, readFraction: 1, iterations: 2000,
      expectedSum: 15_664_996_402_790_400, expectedCount: 1_078_000),
  ]
}

/// One built graph: its sources, the leaves its effect reads, and a count of
/// computations.
public final class DynamicGraph {
  public let sources: [Signal]
  public let readLeaves: [Derived<Double>]
  let graph: SuiteGraph

  /// Computations since the graph was built or the count was last reset.
  public var computations: Int { graph.computations }

  /// Builds the graph of `config` in `graph` (the suite's `makeGraph`).
  public init(_ config: DynamicGraphConfig, in graph: SuiteGraph) {
    self.graph = graph
    let sources = (0..<config.width).map { graph.signal($0) }
    var row: [() -> Double] = sources.map { source in { Double(source.value) } }
    var last: [Derived<Double>] = []
    let random = PseudoRandom()
    for _ in 0..<(config.totalLayers - 1) {
      last = Self.makeRow(row, config, graph, random)
      row = last.map { node in { node.value } }
    }
    let leaves = Self.removeElements(
      last, count: Int((Double(last.count) * (1 - config.readFraction)).rounded()), PseudoRandom())
    graph.effect {
      for leaf in leaves { _ = leaf.value }
    }
    self.sources = sources
    self.readLeaves = leaves
  }

  /// Writes one source per iteration (in a batch) and reads the leaves; returns the
  /// sum of the leaves (the suite's `runGraph`).
  public func run(iterations: Int) -> Double {
    for i in 0..<iterations {
      let index = i % sources.count
      graph.batch { sources[index].value = i + index }
      for leaf in readLeaves { _ = leaf.value }
    }
    return readLeaves.reduce(0) { $1.value + $0 }
  }

  public func resetCount() { graph.resetCounts() }

  /// Puts the graph in the state a run of `iterations` leaves it in (each source holds
  /// the last value such a run writes to it, every leaf read), without the run: the
  /// suite counts computations after warm-up runs, and this is their state.
  public func settleAsAfterARun(iterations: Int) {
    graph.batch {
      for (index, source) in sources.enumerated() {
        let last = (iterations - 1) - ((iterations - 1 - index) % sources.count + sources.count) % sources.count
        if last >= 0 { source.value = last + index }
      }
    }
    for leaf in readLeaves { _ = leaf.value }
  }

  private static func makeRow(
    _ sources: [() -> Double], _ config: DynamicGraphConfig, _ graph: SuiteGraph, _ random: PseudoRandom
  ) -> [Derived<Double>] {
    sources.indices.map { index in
      let mine = (0..<config.nSources).map { sources[(index + $0) % sources.count] }
      if random.next() < config.staticFraction {
        return graph.computed {
          var sum = 0.0
          for source in mine { sum += source() }
          return sum
        }
      }
      // Dynamic: drops one of its sources, chosen by the value of the first.
      let first = mine[0]
      let tail = Array(mine.dropFirst())
      return graph.computed {
        var sum = first()
        let shouldDrop = javaScriptLowBit(sum) != 0
        let dropIndex = sum.truncatingRemainder(dividingBy: Double(tail.count))
        for (position, source) in tail.enumerated() {
          if shouldDrop && Double(position) == dropIndex { continue }
          sum += source()
        }
        return sum
      }
    }
  }

  private static func removeElements<T>(_ source: [T], count: Int, _ random: PseudoRandom) -> [T] {
    var copy = source
    for _ in 0..<count {
      copy.remove(at: Int((random.next() * Double(copy.count)).rounded(.down)))
    }
    return copy
  }
}

/// `x & 1` as JavaScript computes it for a number: on the integer `x` converts to
/// (ToInt32). Only integral values occur here; past 2^63 every double is even.
@inline(__always)
func javaScriptLowBit(_ x: Double) -> Int64 {
  x.magnitude >= 0x1p63 ? 0 : Int64(x) & 1
}

/// The suite's seeded generator (sfc32 seeded by MurmurHash3 of "seed"), so that the
/// graphs are the suite's own.
final class PseudoRandom {
  private var a: UInt32
  private var b: UInt32
  private var c: UInt32
  private var d: UInt32

  init(seed: String = "seed") {
    var hash: UInt32 = 2_166_136_261
    for unit in seed.utf16 {
      var k = UInt32(unit) &* 3_432_918_353
      k = k << 15 | k >> 17
      hash ^= k &* 461_845_907
      hash = hash << 13 | hash >> 19
      hash = hash &* 5 &+ 3_864_292_196
    }
    hash ^= UInt32(seed.utf16.count)
    func nextHash() -> UInt32 {
      hash ^= hash >> 16
      hash = hash &* 2_246_822_507
      hash ^= hash >> 13
      hash = hash &* 3_266_489_909
      hash ^= hash >> 16
      return hash
    }
    a = nextHash()
    b = nextHash()
    c = nextHash()
    d = nextHash()
  }

  /// A number in [0, 1).
  func next() -> Double {
    var t = a &+ b
    a = b ^ (b >> 9)
    b = c &+ (c << 3)
    c = c << 21 | c >> 11
    d = d &+ 1
    t = t &+ d
    c = c &+ t
    return Double(t) / 4_294_967_296
  }
}
