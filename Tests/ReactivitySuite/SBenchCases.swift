import Tracking

/// The suite's S.js cases: making signals, making effects over 0, 1, 2, 4 or 1 000
/// signals (or 1 000 effects over one), and updating a signal under 1, 2, 4 or 1 000
/// effects. The suite reports three sums of times: `createSignals`,
/// `createComputations` and `updateSignals`.
public struct SBenchCase: Sendable {
  public enum Group: String, Sendable, CaseIterable {
    case createSignals, createComputations, updateSignals
  }

  public let name: String
  public let group: Group
  /// How many times the case's unit runs (the suite's `n`).
  public let count: Int
  /// How many signals exist beforehand (the suite's `scount`), each read three times.
  public let signals: Int
  /// Makes the case's work over `sources` in `graph` (before the timer starts) and
  /// returns what is timed after making it; creation cases do their work while made.
  public let body: @Sendable (_ graph: SuiteGraph, _ sources: [Signal], _ count: Int) -> () -> Void
  /// Effect runs the timed part should cause, given `count`, or `nil` where the case
  /// makes effects (every one runs once, as it is made).
  public let expectedEffectRuns: (@Sendable (Int) -> Int)?
  /// The same work written by hand, given `count`, where there is one: making plain
  /// objects, the floor under making signals.
  public var byHand: (@Sendable (Int) -> Void)? = nil

  /// The suite's constant `COUNT`.
  public static let baseCount = 100_000

  public static let all: [SBenchCase] = {
    let n = baseCount
    func effects(_ name: String, count: Int, signals: Int, perEffect: Int, fanIn: Int) -> SBenchCase {
      SBenchCase(
        name: name, group: .createComputations, count: count, signals: signals,
        body: { graph, sources, count in
          for i in 0..<(count / perEffect) {
            for _ in 0..<perEffect {
              if fanIn == 0 {
                graph.effect { sink(i) }
              } else {
                let reads = (0..<fanIn).map { sources[(i * fanIn + $0) % sources.count] }
                graph.effect {
                  var sum = 0
                  for source in reads { sum &+= source.value }
                  sink(sum)
                }
              }
            }
          }
          return {}
        }, expectedEffectRuns: nil)
    }
    func update(_ name: String, count: Int, signals: Int, effects: Int, fanIn: Int, writes: @escaping @Sendable (Int) -> Int)
      -> SBenchCase
    {
      SBenchCase(
        name: name, group: .updateSignals, count: count, signals: signals,
        body: { graph, sources, count in
          let reads = Array(sources.prefix(fanIn))
          for _ in 0..<effects {
            graph.effect {
              var sum = 0
              for source in reads { sum &+= source.value }
              sink(sum)
            }
          }
          let first = sources[0]
          return {
            for i in 0..<writes(count) { graph.batch { first.value = i } }
          }
        },
        // The first write stores 0 over the signal's 0: no change.
        expectedEffectRuns: { count in effects * (writes(count) - 1) })
    }
    return [
      SBenchCase(
        name: "createSignals", group: .createSignals, count: n, signals: 0,
        body: { graph, _, count in
          var made: [Signal] = []
          made.reserveCapacity(count)
          for i in 0..<count { made.append(graph.signal(i)) }
          sink(made)
          return {}
        }, expectedEffectRuns: nil,
        byHand: { count in
          var made: [PlainSignal] = []
          made.reserveCapacity(count)
          for i in 0..<count { made.append(PlainSignal(i)) }
          sink(made)
        }),
      effects("create0to1", count: n, signals: 0, perEffect: 1, fanIn: 0),
      effects("create1to1", count: n, signals: n, perEffect: 1, fanIn: 1),
      effects("create2to1", count: n / 2, signals: n, perEffect: 1, fanIn: 2),
      effects("create4to1", count: n / 4, signals: n, perEffect: 1, fanIn: 4),
      effects("create1000to1", count: n / 1000, signals: n, perEffect: 1, fanIn: 1000),
      effects("create1to2", count: n, signals: n / 2, perEffect: 2, fanIn: 1),
      effects("create1to4", count: n, signals: n / 4, perEffect: 4, fanIn: 1),
      effects("create1to8", count: n, signals: n / 8, perEffect: 8, fanIn: 1),
      effects("create1to1000", count: n, signals: n / 1000, perEffect: 1000, fanIn: 1),
      update("update1to1", count: n * 4, signals: 1, effects: 1, fanIn: 1) { $0 },
      update("update2to1", count: n * 2, signals: 2, effects: 1, fanIn: 2) { $0 },
      update("update4to1", count: n, signals: 4, effects: 1, fanIn: 4) { $0 },
      update("update1000to1", count: n / 250, signals: 1000, effects: 1, fanIn: 1000) { $0 },
      update("update1to2", count: n, signals: 1, effects: 2, fanIn: 1) { $0 },
      update("update1to4", count: n, signals: 1, effects: 4, fanIn: 1) { $0 },
      update("update1to1000", count: n, signals: 1, effects: 1000, fanIn: 1) { $0 / 10 },
    ]
  }()
}

/// A signal written by hand: one integer in an object of its own, nothing tracked.
public final class PlainSignal: @unchecked Sendable {
  public var value: Int

  public init(_ value: Int) { self.value = value }
}
