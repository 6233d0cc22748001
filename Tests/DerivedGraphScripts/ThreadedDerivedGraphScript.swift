import Foundation
import PropertyBased

/// A graph, and the operations of each thread (their own `ops` are not used).
///
/// The suites that run these scripts turn shrinking off (`.shrinking(false)`): threads
/// interleave differently each time, so a failing script may pass when it is run again
/// or shrunk, and the property check would then report the script without the failure
/// itself. Unshrunk, the failing run records its own message, with its script.
public struct ThreadedDerivedGraphScript: Sendable, CustomStringConvertible {
  public let graph: DerivedGraphScript
  public let threads: [[GraphOp]]

  public init(graph: DerivedGraphScript, threads: [[GraphOp]]) {
    self.graph = graph
    self.threads = threads
  }

  /// How many times each thread runs its operations (the values written vary with the
  /// round).
  public static let rounds = 20

  /// How many scripts each threaded suite checks: an eighth of `TRACKING_PROPERTY_CASES`
  /// (400 by default), since each script runs its threads `rounds` times.
  public static let scriptCount =
    (Int(ProcessInfo.processInfo.environment["TRACKING_PROPERTY_CASES"] ?? "") ?? 400) / 8

  public var description: String {
    var lines = [graph.description]
    for (index, ops) in threads.enumerated() {
      lines.append("thread \(index): \(ops.map(\.description).joined(separator: "; "))")
    }
    return lines.joined(separator: "\n")
  }
}

extension DerivedGraphGenerator {
  /// A graph with 2 or 3 threads of 1 to 8 operations each.
  public static func threadedScripts() -> Generator<ThreadedDerivedGraphScript, [ThreadedDerivedGraphScript]> {
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
