import Dispatch
import Foundation
import Tracking

/// Writes encoded values to a storage on a serial background queue, newest first and
/// never an older value after a newer one.
///
/// Values are numbered by the caller (a *generation*). Only the newest pending value is
/// kept, so a burst of submissions costs one write. With an interval, the first
/// submission of a burst schedules the write that much later and everything submitted
/// meanwhile rides along (at most one write per interval, and the last value is never
/// dropped). A failed write is reported and its value stays pending, so the next
/// submission or flush retries it (or a newer value).
final class PersistenceWriter: Sendable {
  struct Pending {
    let data: Data
    let generation: Int
  }

  private struct State {
    var pending: Pending?
    var scheduled = false
    var writtenGeneration = 0
    var saveCount = 0
    var failureCount = 0
  }

  let storage: any PersistenceStorage
  private let interval: Duration?
  private let onError: @Sendable (PersistenceError) -> Void
  private let queue = DispatchQueue(label: "TrackingPersistence.writer")
  private let state = Locked(State())

  init(storage: any PersistenceStorage, interval: Duration?, onError: @escaping @Sendable (PersistenceError) -> Void) {
    self.storage = storage
    self.interval = interval
    self.onError = onError
  }

  var saveCount: Int { state.withLock { $0.saveCount } }
  var failureCount: Int { state.withLock { $0.failureCount } }
  var hasPendingValue: Bool { state.withLock { $0.pending != nil } }

  /// Queues `data` for writing, replacing any older pending value.
  func submit(_ data: Data, generation: Int) {
    let schedule = state.withLock { state -> Bool in
      if generation > (state.pending?.generation ?? state.writtenGeneration) {
        state.pending = Pending(data: data, generation: generation)
      }
      guard !state.scheduled else { return false }
      state.scheduled = true
      return true
    }
    guard schedule else { return }
    let drain: @Sendable () -> Void = { [self] in
      state.withLock { $0.scheduled = false }
      _ = writePending()
    }
    if let interval, interval > .zero {
      let (seconds, attoseconds) = interval.components
      let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
      queue.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds), execute: drain)
    } else {
      queue.async(execute: drain)
    }
  }

  /// Writes the pending value now, on the caller's thread after any write under way.
  func flush() throws(PersistenceError) {
    let error = queue.sync { writePending() }
    if let error { throw error }
  }

  /// Writes the pending value, if any. Runs on `queue`.
  private func writePending() -> PersistenceError? {
    guard let pending = state.withLock({ state -> Pending? in
      defer { state.pending = nil }
      return state.pending
    }) else { return nil }
    do {
      try storage.save(pending.data)
      state.withLock { state in
        state.writtenGeneration = pending.generation
        state.saveCount += 1
      }
      return nil
    } catch {
      // Keep the value pending unless a newer one arrived meanwhile.
      state.withLock { state in
        state.failureCount += 1
        if state.pending == nil { state.pending = pending }
      }
      let failure = PersistenceError.writeFailed(underlying: error)
      onError(failure)
      return failure
    }
  }
}
