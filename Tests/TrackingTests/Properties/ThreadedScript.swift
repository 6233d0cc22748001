import PropertyBased

/// A script split across threads, and the interleaving to run it in: thread `i` runs
/// `threads[i]`, and `schedule` names, turn by turn, which thread runs next (until its
/// next `pause`, or its end). See ``TurnScheduler``.
struct ThreadedScript: Hashable, Sendable, CustomStringConvertible {
  var threads: [[ScriptOp]]
  var schedule: [Int]

  var description: String {
    let programs = threads.enumerated().map { index, ops in "thread \(index): \(Script(ops: ops))" }
    return (programs + ["schedule: \(schedule.map(String.init).joined(separator: " "))"]).joined(separator: "\n")
  }

  /// Runs the script on `backend`, by turns; returns `false` if the interleaving could
  /// not be enforced (a turn never came).
  func run<Backend: ScriptBackend & Sendable>(on backend: Backend) -> Bool {
    let scheduler = TurnScheduler(threads: threads.count, schedule: schedule)
    scheduler.run(
      threads.enumerated().map { index, ops in
        { pause in backend.run(ops, thread: index, pause: pause) }
      })
    return !scheduler.timedOut
  }
}

extension ScriptGenerator {
  /// Scripts of 2…4 threads of 1…`maxLength` operations each, with pauses (also inside
  /// `apply` and transactions, so that other threads write between a scope's reads and
  /// its install), and a schedule of turns.
  static func threadedScripts(maxLength: Int = 8) -> Generator<ThreadedScript, [ThreadedScript]> {
    Generator(
      run: { rng in
        let threads = (0..<Int.random(in: 2...4, using: &rng)).map { _ in
          (0..<Int.random(in: 1...maxLength, using: &rng)).map { _ in topLevel(&rng, pauses: true) }
        }
        let turns = threads.reduce(0) { $0 + $1.reduce(0) { $0 + $1.pauseCount } } + threads.count
        let schedule = (0..<(turns * 3 / 2)).map { _ in Int.random(in: 0..<threads.count, using: &rng) }
        return ThreadedScript(threads: threads, schedule: schedule)
      },
      shrink: { script in shrink(script) }
    )
  }

  /// Smaller variants: without a thread, with a shorter schedule, with one thread's
  /// operations shrunk.
  static func shrink(_ script: ThreadedScript) -> [ThreadedScript] {
    var candidates: [ThreadedScript] = []
    if script.threads.count > 1 {
      for dropped in script.threads.indices {
        var threads = script.threads
        threads.remove(at: dropped)
        let schedule = script.schedule.compactMap { $0 == dropped ? nil : $0 > dropped ? $0 - 1 : $0 }
        candidates.append(ThreadedScript(threads: threads, schedule: schedule))
      }
    }
    for shorter in removals(script.schedule) {
      candidates.append(ThreadedScript(threads: script.threads, schedule: shorter))
    }
    for index in script.threads.indices {
      for smaller in shrink(script.threads[index]) {
        var threads = script.threads
        threads[index] = smaller
        candidates.append(ThreadedScript(threads: threads, schedule: script.schedule))
      }
    }
    return candidates
  }
}

extension ScriptOp {
  /// The pauses in this operation, nested ones included.
  var pauseCount: Int {
    switch self {
    case .pause: 1
    case .track(_, let body), .transaction(let body): body.reduce(0) { $0 + $1.pauseCount }
    default: 0
    }
  }
}
