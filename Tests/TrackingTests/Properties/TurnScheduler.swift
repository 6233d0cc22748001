import Dispatch
import Foundation

/// Runs one program per thread, one thread at a time, in the order a schedule gives:
/// a fixed interleaving, enforced by handshakes (no sleeps, no timing).
///
/// A program runs until it calls `pause` (or ends); the turn then goes to the thread
/// that the next entry of the schedule names (skipping threads that have finished);
/// once the schedule is used up, to the first unfinished thread. Each thread waits on
/// its own semaphore; handing over the turn is one `signal`, which also orders
/// everything the previous thread did before everything the next one does.
///
/// `@unchecked Sendable`: `position` and `finished` are only touched by the thread
/// holding the turn; `timedOut` is behind `lock`.
final class TurnScheduler: @unchecked Sendable {
  private let semaphores: [DispatchSemaphore]
  private let schedule: [Int]
  private var position = 0
  private var finished: [Bool]
  private let allDone = DispatchSemaphore(value: 0)
  private let lock = NSLock()
  private var timedOutFlag = false

  /// Longest wait for a turn: only reached if a program blocks, which is a failure.
  static let patience: DispatchTimeInterval = .seconds(20)

  init(threads: Int, schedule: [Int]) {
    semaphores = (0..<threads).map { _ in DispatchSemaphore(value: 0) }
    self.schedule = schedule.filter { $0 < threads }
    finished = Array(repeating: false, count: threads)
  }

  /// Whether a wait for a turn ran out of patience (the interleaving was then not
  /// enforced, and the run proves nothing).
  var timedOut: Bool { lock.withLock { timedOutFlag } }

  /// Runs `programs[i]` on thread `i`, by turns, and returns when all have ended.
  /// Each program receives the `pause` function that hands over its turn.
  func run(_ programs: [@Sendable (_ pause: () -> Void) -> Void]) {
    precondition(programs.count == semaphores.count)
    for (index, program) in programs.enumerated() {
      let thread = Thread { [self] in
        waitForTurn(index)
        program { self.pause(index) }
        finished[index] = true
        passTurn()
      }
      thread.start()
    }
    passTurn()
    if allDone.wait(timeout: .now() + Self.patience) == .timedOut { noteTimeout() }
  }

  private func pause(_ index: Int) {
    passTurn()
    waitForTurn(index)
  }

  private func waitForTurn(_ index: Int) {
    if semaphores[index].wait(timeout: .now() + Self.patience) == .timedOut { noteTimeout() }
  }

  private func noteTimeout() { lock.withLock { timedOutFlag = true } }

  private func passTurn() {
    while position < schedule.count {
      let next = schedule[position]
      position += 1
      if !finished[next] {
        semaphores[next].signal()
        return
      }
    }
    if let next = finished.firstIndex(of: false) {
      semaphores[next].signal()
      return
    }
    allDone.signal()
  }
}
