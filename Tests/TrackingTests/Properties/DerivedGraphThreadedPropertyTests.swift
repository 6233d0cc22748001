import Foundation
import PropertyBased
import Testing
import Tracking

/// Random derived graphs used from two or three threads at once: each thread repeats
/// its own random writes, transactions, reads and cancellations. When they are done,
/// every computation's value agrees with its inputs' values (equal to what its closure
/// computes from them, or equal by its rule), and every live effect's latest run read
/// the values that are there at the end — no change lost, whatever thread made it or
/// ran the effect. ThreadSanitizer runs it too.
///
/// The signals are `LockedCell`s: a tracked property's storage is no more thread-safe
/// than a plain property's (as with Apple's `@Observable`).
@Suite("Properties: random derived graphs across threads", .timeLimit(.minutes(2)))
struct DerivedGraphThreadedPropertyTests {
  static func check(_ script: ThreadedDerivedGraphScript, sourceLocation: SourceLocation = #_sourceLocation) {
    let world = ThreadedDerivedGraphWorld(script.graph)
    let failures = world.run(script.threads, rounds: Self.rounds)
    #expect(
      failures.isEmpty, "\(failures.joined(separator: "\n"))\nscript:\n\(script)", sourceLocation: sourceLocation)
  }

  @Test func everyValueAndEffectEndsConsistent() async {
    await propertyCheck(count: Self.count, input: DerivedGraphGenerator.threadedScripts()) { script in
      Self.check(script)
    }
  }

  /// Each thread runs its operations this many times (the values written vary with
  /// the round).
  static let rounds = 20
  static let count = (Int(ProcessInfo.processInfo.environment["TRACKING_PROPERTY_CASES"] ?? "") ?? 400) / 8
}

/// A graph, and the operations of each thread (their own `ops` are not used).
struct ThreadedDerivedGraphScript: Sendable, CustomStringConvertible {
  let graph: DerivedGraphScript
  let threads: [[GraphOp]]

  var description: String {
    var lines = [graph.description]
    for (index, ops) in threads.enumerated() {
      lines.append("thread \(index): \(ops.map(\.description).joined(separator: "; "))")
    }
    return lines.joined(separator: "\n")
  }
}

extension DerivedGraphGenerator {
  static func threadedScripts() -> Generator<ThreadedDerivedGraphScript, [ThreadedDerivedGraphScript]> {
    Generator(
      run: { rng in
        let graph = script(&rng, maxOps: 1)
        let threads = (0..<Int.random(in: 2...3, using: &rng)).map { _ in
          ops(&rng, on: graph, count: Int.random(in: 1...8, using: &rng))
        }
        return ThreadedDerivedGraphScript(graph: graph, threads: threads)
      },
      shrink: { script in
        script.threads.indices.flatMap { index in
          shrink(script.threads[index]).map { ops in
            var threads = script.threads
            threads[index] = ops
            return ThreadedDerivedGraphScript(graph: script.graph, threads: threads)
          }
        }
      })
  }
}

/// Runs a graph's threads on the runtime, then compares the end state with the values
/// computed by hand. Thread-safe: the signals lock their storage, the effects' latest
/// reads and the tokens are under `lock`, and the rest is set before the threads start.
final class ThreadedDerivedGraphWorld: @unchecked Sendable {
  private let graph: DerivedGraphScript
  private let signals: [LockedCell]
  private var derived: [Derived<Int>] = []
  private let lock = NSLock()
  /// Under `lock`.
  private var tokens: [TrackingToken?] = []
  /// Under `lock`: what each effect's latest run read.
  private var lastReads: [[GraphInput: Int]]

  init(_ graph: DerivedGraphScript) {
    self.graph = graph
    signals = (0..<graph.signalCount).map { _ in LockedCell() }
    lastReads = Array(repeating: [:], count: graph.effects.count)
  }

  /// Runs each thread's operations `rounds` times, all threads at once, and returns
  /// what does not agree with the values computed by hand at the end.
  func run(_ threads: [[GraphOp]], rounds: Int) -> [String] {
    for index in graph.computations.indices {
      derived.append(graph.computations[index].derived { [unowned self] in self.compute(index) })
    }
    let started = graph.effects.enumerated().map { index, effect in
      effect.takesEvents
        ? withContinuousTracking(options: .didSet, delivery: .immediate, firstRun: .immediate) { [unowned self] _ in
          self.runEffect(index)
        }
        : observe { [unowned self] in self.runEffect(index) }
    }
    lock.withLock { tokens = started }
    DispatchQueue.concurrentPerform(iterations: threads.count) { thread in
      for round in 0..<rounds {
        for op in threads[thread] { perform(op, round: round) }
      }
    }
    // Each value against its own inputs' final values: a computation whose rule kept
    // an equal value keeps one equal by its rule.
    var failures: [String] = []
    for (index, computation) in graph.computations.enumerated() {
      let value = derived[index].value
      let new = compute(index)
      if computation.rule == .sameParity ? computation.differs(value, new) : value != new {
        failures.append("c\(index) = \(value) at the end, though its inputs give \(new)")
      }
    }
    let (live, reads) = lock.withLock { (tokens.map { $0 != nil }, lastReads) }
    for index in graph.effects.indices where live[index] {
      for (input, seen) in reads[index] where seen != value(of: input) {
        failures.append("e\(index)'s latest run read \(input) = \(seen), and it is \(value(of: input)) at the end")
      }
    }
    for token in lock.withLock({ tokens }) { token?.cancel() }
    return failures
  }

  private func perform(_ op: GraphOp, round: Int) {
    switch op {
    case .write(let signal, let value):
      signals[signal].value = (value + round) % 3
    case .transaction(let steps):
      withTransaction {
        for step in steps {
          switch step {
          case .write(let signal, let value): signals[signal].value = (value + round) % 3
          case .read(let computation): _ = derived[computation].value
          }
        }
      }
    case .read(let computation):
      _ = derived[computation].value
    case .cancel(let effect):
      let token = lock.withLock {
        defer { tokens[effect] = nil }
        return tokens[effect]
      }
      token?.cancel()
    case .track(let computation):
      withTracking(options: .didSet, { _ = derived[computation].value }) { [unowned self] _ in
        _ = derived[computation].value
      }
    }
  }

  private func compute(_ index: Int) -> Int {
    graph.compute(index) { value(of: $0) }
  }

  private func runEffect(_ index: Int) {
    var reads: [GraphInput: Int] = [:]
    for read in graph.effects[index].reads {
      if let condition = read.onlyIfOdd {
        let value = value(of: condition)
        reads[condition] = value
        if value % 2 == 0 { continue }
      }
      reads[read.input] = value(of: read.input)
    }
    lock.withLock { lastReads[index] = reads }
  }

  private func value(of input: GraphInput) -> Int {
    switch input {
    case .signal(let index): signals[index].value
    case .computation(let index): derived[index].value
    }
  }
}
