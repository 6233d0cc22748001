import Tracking

// The field's reactive-graph benchmark suite (milomg/js-reactivity-benchmark), ported to
// this package: its signals are tracked properties, its computeds `Derived` values, its
// effects continuous observations (`observe`) and its batches transactions. The graph
// shapes, sizes, iteration counts and expected results are the suite's; the code is
// ours. One copy serves the tests (Tests/TrackingTests/Reactive) and the benchmark
// (Benchmarks/Sources/reactivity), which reaches this folder through a symbolic link.
//
// Everything here is single-threaded, as the suite is: the `@unchecked Sendable`s below
// only let the suite's closures be handed to `observe`, which wants `@Sendable` ones.

/// A signal of the suite: one tracked integer.
@Trackable
public final class Signal: @unchecked Sendable {
  public var value: Int

  public init(_ value: Int) { self.value = value }
}

/// What the suite calls a "framework": makes signals, computeds and effects, runs
/// batches, and counts effect runs and computations so that each case can check the
/// suite's own figures.
public final class SuiteGraph: @unchecked Sendable {
  /// Effect runs since the last ``resetCounts()``.
  public private(set) var effectRuns = 0
  /// Computed evaluations since the last ``resetCounts()``.
  public private(set) var computations = 0
  private var tokens: [TrackingToken] = []

  public init() {}

  public func signal(_ value: Int) -> Signal { Signal(value) }

  /// A computed value: lazy, cached, and (its value being `Equatable`) a change that
  /// leaves it equal goes no further.
  public func computed<Value: Equatable & Sendable>(_ compute: @escaping () -> Value) -> Derived<Value> {
    Derived { [unowned self] in
      self.computations += 1
      return compute()
    }
  }

  /// An effect: runs now, and again after each change of what it read.
  public func effect(_ body: @escaping @Sendable () -> Void) {
    tokens.append(
      observe { [unowned self] in
        self.effectRuns += 1
        body()
      })
  }

  public func batch(_ body: () -> Void) { withTransaction(body) }

  public func resetCounts() {
    effectRuns = 0
    computations = 0
  }

  /// Ends every effect (the suite's `cleanup`).
  public func cleanup() {
    for token in tokens { token.cancel() }
    tokens.removeAll()
  }

  deinit { cleanup() }
}

/// The suite's counter, for the counts it keeps itself (`callCounter`).
public final class Counter: @unchecked Sendable {
  public var count = 0
  public init() {}
}

/// A failed check of the suite's expected figures.
public struct SuiteCheckFailure: Error, CustomStringConvertible {
  public let description: String
  public init(_ description: String) { self.description = description }
}

/// Throws when `actual` is not `expected`.
@inline(never)
public func expectSuite<T: Equatable>(
  _ actual: T, _ expected: T, _ what: @autoclosure () -> String
) throws(SuiteCheckFailure) {
  if actual != expected { throw SuiteCheckFailure("\(what()): expected \(expected), got \(actual)") }
}

/// A loop the optimizer cannot remove: the suite's `busy()`, a stand-in for work.
@inline(never)
public func busy() {
  var a = 0
  for _ in 0..<opaqueCount(100) { a &+= 1 }
  sink(a)
}

@inline(never) @_optimize(none)
public func opaqueCount(_ value: Int) -> Int { value }

@inline(never) @_optimize(none)
public func sink<T>(_ value: T) {}
