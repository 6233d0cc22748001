import PropertyBased

/// Random ``DerivedGraphScript``s, and how to shrink a failing one.
public enum DerivedGraphGenerator {
  public static func scripts(maxOps: Int = 12) -> Generator<DerivedGraphScript, [DerivedGraphScript]> {
    Generator(run: { rng in script(&rng, maxOps: maxOps) }, shrink: { shrink($0) })
  }

  public static func script<R: RandomNumberGenerator>(_ rng: inout R, maxOps: Int) -> DerivedGraphScript {
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
  public static func ops<R: RandomNumberGenerator>(_ rng: inout R, on graph: DerivedGraphScript, count: Int) -> [GraphOp] {
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
  public static func read<R: RandomNumberGenerator>(_ rng: inout R, signals: Int, computations: Int) -> GraphRead {
    func input() -> GraphInput {
      computations > 0 && Int.random(in: 0..<3, using: &rng) != 0
        ? .computation(Int.random(in: 0..<computations, using: &rng))
        : .signal(Int.random(in: 0..<signals, using: &rng))
    }
    let main = input()
    return GraphRead(input: main, onlyIfOdd: Int.random(in: 0..<4, using: &rng) == 0 ? input() : nil)
  }

  /// Values 0…2, so that writes of the value already there, and back, are common.
  public static func write<R: RandomNumberGenerator>(_ rng: inout R, signals: Int) -> GraphOp {
    .write(signal: Int.random(in: 0..<signals, using: &rng), value: Int.random(in: 0...2, using: &rng))
  }

  /// Fewer operations, fewer steps in a transaction, fewer effects.
  public static func shrink(_ script: DerivedGraphScript) -> [DerivedGraphScript] {
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
  public static func shrink(_ ops: [GraphOp]) -> [[GraphOp]] {
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
