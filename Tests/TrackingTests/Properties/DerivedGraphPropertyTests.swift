import Foundation
import PropertyBased
import Testing

/// Random graphs of derived values — diamonds, chains, dependencies that come and go,
/// moduli that make many recomputations end equal, each of `Derived`'s rules for what
/// counts as a change — with effects (some of which write) and one-shot trackings on
/// them, under random writes, transactions, reads, cancellations and restarts. Each
/// step is checked against values computed by hand (see ``DerivedGraphWorld`` for the
/// rules): no read sees a glitch, no computation runs twice for one change or runs with
/// nothing changed, each effect runs exactly when a write other than its own reached
/// it and something it read moved on, and each tracking fires exactly when its value
/// moved on.
///
/// A failure prints the script, shrunk, and what broke; the seed it prints replays it
/// (`@Test(.fixedSeed("…"))`).
@Suite("Properties: random derived graphs")
struct DerivedGraphPropertyTests {
  @discardableResult
  static func check(_ script: DerivedGraphScript, sourceLocation: SourceLocation = #_sourceLocation)
    -> DerivedGraphWorld
  {
    let world = DerivedGraphWorld(script)
    world.run()
    #expect(
      world.failures.isEmpty, "\(world.failures.joined(separator: "\n"))\nscript:\n\(script)",
      sourceLocation: sourceLocation)
    return world
  }

  @Test func everyReadAndRunIsTheOneComputedByHand() async {
    await propertyCheck(count: Self.count, input: DerivedGraphGenerator.scripts()) { script in
      Self.check(script)
    }
  }

  /// A diamond under transactions that change its input and change it back. When the
  /// transaction reads the diamond in between, its value changes and changes back, and
  /// the effect on it runs (its version moved twice); when it does not, nothing was
  /// recomputed, and the effect does not run. The effect on the input itself runs both
  /// times.
  @Test func aWriteUndoneInATransaction() {
    let world = Self.check(
      DerivedGraphScript(
        signalCount: 1,
        computations: [
          GraphComputation(reads: [GraphRead(input: .signal(0), onlyIfOdd: nil)], modulus: 1000, rule: .equatable),
          GraphComputation(reads: [GraphRead(input: .signal(0), onlyIfOdd: nil)], modulus: 1000, rule: .equatable),
          GraphComputation(
            reads: [
              GraphRead(input: .computation(0), onlyIfOdd: nil), GraphRead(input: .computation(1), onlyIfOdd: nil),
            ],
            modulus: 1000, rule: .equatable),
        ],
        effects: [
          GraphEffect(reads: [GraphRead(input: .computation(2), onlyIfOdd: nil)], takesEvents: false),
          GraphEffect(reads: [GraphRead(input: .signal(0), onlyIfOdd: nil)], takesEvents: true),
        ],
        ops: [
          .transaction([.write(signal: 0, value: 1), .read(computation: 2), .write(signal: 0, value: 0)]),
          .transaction([.write(signal: 0, value: 2), .write(signal: 0, value: 0)]),
          .write(signal: 0, value: 3),
        ]))
    // Each effect's first run, then: the diamond's runs after the first transaction and
    // the last write; the input's after all three operations.
    #expect(world.effectRuns == [3, 4])
  }

  static let count = Int(ProcessInfo.processInfo.environment["TRACKING_PROPERTY_CASES"] ?? "") ?? 400
}

/// Random ``DerivedGraphScript``s, and how to shrink a failing one.
enum DerivedGraphGenerator {
  static func scripts(maxOps: Int = 12) -> Generator<DerivedGraphScript, [DerivedGraphScript]> {
    Generator(run: { rng in script(&rng, maxOps: maxOps) }, shrink: { shrink($0) })
  }

  static func script<R: RandomNumberGenerator>(_ rng: inout R, maxOps: Int) -> DerivedGraphScript {
    let signalCount = Int.random(in: 1...4, using: &rng)
    var computations: [GraphComputation] = []
    for index in 0..<Int.random(in: 1...7, using: &rng) {
      let reads = (0..<Int.random(in: 1...3, using: &rng)).map { _ in
        read(&rng, signals: signalCount, computations: index)
      }
      let rules: [GraphComputation.Rule] = [.equatable, .equatable, .sameParity, .alwaysDiffering]
      let rule = rules.randomElement(using: &rng)!
      computations.append(
        GraphComputation(reads: reads, modulus: [2, 3, 5, 1000].randomElement(using: &rng)!, rule: rule))
    }
    let effects = (0..<Int.random(in: 1...3, using: &rng)).map { index in
      let reads = (0..<Int.random(in: 1...3, using: &rng)).map { _ in
        read(&rng, signals: signalCount, computations: computations.count)
      }
      // One effect in three writes a signal of its own (effect `i` signal `i`).
      let writes = index < signalCount && Int.random(in: 0..<3, using: &rng) == 0
      return GraphEffect(
        reads: reads, takesEvents: Bool.random(using: &rng),
        write: writes
          ? GraphEffectWrite(
            signal: index, value: Int.random(in: 0...2, using: &rng), before: Int.random(in: 0...reads.count, using: &rng))
          : nil)
    }
    let graph = DerivedGraphScript(signalCount: signalCount, computations: computations, effects: effects, ops: [])
    return graph.with(ops: ops(&rng, on: graph, count: Int.random(in: 1...maxOps, using: &rng)))
  }

  /// `count` operations on `graph`'s signals, computations and effects.
  static func ops<R: RandomNumberGenerator>(_ rng: inout R, on graph: DerivedGraphScript, count: Int) -> [GraphOp] {
    let signals = graph.signalCount
    let computations = graph.computations.count
    return (0..<count).map { _ -> GraphOp in
      switch Int.random(in: 0..<11, using: &rng) {
      case 0..<4: write(&rng, signals: signals)
      case 4..<7:
        .transaction(
          (0..<Int.random(in: 1...4, using: &rng)).map { _ in
            Int.random(in: 0..<4, using: &rng) == 0
              ? .read(computation: Int.random(in: 0..<computations, using: &rng))
              : .write(signal: Int.random(in: 0..<signals, using: &rng), value: Int.random(in: 0...2, using: &rng))
          })
      case 7..<9: .read(computation: Int.random(in: 0..<computations, using: &rng))
      case 9:
        Bool.random(using: &rng)
          ? .cancel(effect: Int.random(in: 0..<graph.effects.count, using: &rng))
          : .track(computation: Int.random(in: 0..<computations, using: &rng))
      default: .restart(effect: Int.random(in: 0..<graph.effects.count, using: &rng))
      }
    }
  }

  /// Reads favour computations (deeper graphs); one in four depends on a condition.
  static func read<R: RandomNumberGenerator>(_ rng: inout R, signals: Int, computations: Int) -> GraphRead {
    func input() -> GraphInput {
      computations > 0 && Int.random(in: 0..<3, using: &rng) != 0
        ? .computation(Int.random(in: 0..<computations, using: &rng))
        : .signal(Int.random(in: 0..<signals, using: &rng))
    }
    let main = input()
    return GraphRead(input: main, onlyIfOdd: Int.random(in: 0..<4, using: &rng) == 0 ? input() : nil)
  }

  /// Values 0…2, so that writes of the value already there, and back, are common.
  static func write<R: RandomNumberGenerator>(_ rng: inout R, signals: Int) -> GraphOp {
    .write(signal: Int.random(in: 0..<signals, using: &rng), value: Int.random(in: 0...2, using: &rng))
  }

  /// Fewer operations, fewer steps in a transaction, fewer effects.
  static func shrink(_ script: DerivedGraphScript) -> [DerivedGraphScript] {
    var candidates = shrink(script.ops).map { script.with(ops: $0) }
    // An effect that writes nothing.
    for index in script.effects.indices where script.effects[index].write != nil {
      var effects = script.effects
      effects[index] = GraphEffect(reads: effects[index].reads, takesEvents: effects[index].takesEvents)
      candidates.append(
        DerivedGraphScript(
          signalCount: script.signalCount, computations: script.computations, effects: effects, ops: script.ops))
    }
    // Cancellations name effects by number: only the last effect is dropped.
    if script.effects.count > 1 {
      candidates.append(
        DerivedGraphScript(
          signalCount: script.signalCount, computations: script.computations,
          effects: Array(script.effects.dropLast()), ops: script.ops))
    }
    return candidates
  }

  /// `ops` without one operation, or with one step fewer in a transaction.
  static func shrink(_ ops: [GraphOp]) -> [[GraphOp]] {
    var candidates: [[GraphOp]] = []
    for index in ops.indices {
      var fewer = ops
      fewer.remove(at: index)
      candidates.append(fewer)
      if case .transaction(let steps) = ops[index], steps.count > 1 {
        for step in steps.indices {
          var shorter = steps
          shorter.remove(at: step)
          var simpler = ops
          simpler[index] = .transaction(shorter)
          candidates.append(simpler)
        }
      }
    }
    return candidates
  }
}
