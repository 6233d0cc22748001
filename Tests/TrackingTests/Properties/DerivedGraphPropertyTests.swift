import DerivedGraphScripts
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
