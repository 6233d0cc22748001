import Foundation
import Testing
import Tracking

/// A reaction waits in the batch of the thread whose change queued it, and runs when
/// that batch drains, for the changes of that batch. A change that reaches it on a
/// thread whose batch it waits in belongs to that batch, whatever its kind: a will-set
/// that finds it waiting there must make the drain run it, or nothing would, and every
/// later change would take it for a run already on its way.
@Suite("Reactions waiting in batches across threads", .timeLimit(.minutes(1)))
struct BatchesAcrossThreadsTests {
  @Trackable final class Switch: @unchecked Sendable {
    /// Odd: the observation reads `guarded`.
    var condition = 1
    var guarded = 0
  }

  /// A will-set reaches the observation on the thread whose transaction it waits in,
  /// after another thread's run dropped its link to the property written (the thread
  /// collected the will-set's hearers before): no did-set follows, and the will-set
  /// alone must run it when the transaction ends. The interleaving is fixed by two
  /// observations that hear will-sets and wait at chosen points:
  ///
  /// 1. In a transaction, the test's thread writes `condition = 2`: the observation runs
  ///    for the will-set (reading `condition` 1, then `guarded`), and waits in the
  ///    transaction for the did-set.
  /// 2. The test's thread writes `guarded`. Its first hearer, `pauseGuarded`, waits while
  ///    another thread writes `condition = 4`: that will-set runs the observation
  ///    there, which reads `condition` 2 and drops `guarded`; `pauseCondition`, the
  ///    next hearer, holds that thread before it stores 4.
  /// 3. The observation, told of `guarded`'s will-set, waits in the transaction, which
  ///    ends: its run reads `condition` 2 (4 is not stored yet).
  /// 4. The other thread stores 4: its did-set runs the observation, which reads 4.
  @Test func aWillSetThatFindsTheReactionQueuedInItsThreadsBatchRunsItAtTheDrain() {
    let model = Switch()
    let seen = Locked<[Int]>([])
    // Each pause happens once, when armed.
    let pauseGuardedArmed = Locked(false)
    let pauseConditionArmed = Locked(false)
    let otherThreadWaits = DispatchSemaphore(value: 0)
    let transactionEnded = DispatchSemaphore(value: 0)
    let otherThreadDone = DispatchSemaphore(value: 0)
    // Hears `guarded` first: it reads it before the observation does.
    let pauseGuarded = withContinuousTracking(options: .willSet, delivery: .immediate, firstRun: .immediate) { _ in
      _ = model.guarded
      guard Self.disarm(pauseGuardedArmed) else { return }
      Thread {
        pauseConditionArmed.withLock { $0 = true }
        model.condition = 4
        otherThreadDone.signal()
      }.start()
      otherThreadWaits.wait()
    }
    let observation = withContinuousTracking(options: .willSet, delivery: .immediate, firstRun: .immediate) { _ in
      let condition = model.condition
      seen.withLock { $0.append(condition) }
      if condition % 2 == 1 { _ = model.guarded }
    }
    // Hears `condition` after the observation: it read it later.
    let pauseCondition = withContinuousTracking(options: .willSet, delivery: .immediate, firstRun: .immediate) { _ in
      _ = model.condition
      guard Self.disarm(pauseConditionArmed) else { return }
      otherThreadWaits.signal()
      transactionEnded.wait()
    }
    withTransaction {
      model.condition = 2
      pauseGuardedArmed.withLock { $0 = true }
      model.guarded = 1
    }
    transactionEnded.signal()
    otherThreadDone.wait()
    #expect(model.condition == 4)
    #expect(seen.withLock { $0.last } == 4, "runs: \(seen.withLock { $0 })")
    // And it still hears every change.
    model.condition = 6
    #expect(seen.withLock { $0.last } == 6, "runs: \(seen.withLock { $0 })")
    for token in [pauseGuarded, observation, pauseCondition] { token.cancel() }
  }

  /// Whether `armed` was set; clears it.
  static func disarm(_ armed: Locked<Bool>) -> Bool {
    armed.withLock { armed in
      defer { armed = false }
      return armed
    }
  }
}
