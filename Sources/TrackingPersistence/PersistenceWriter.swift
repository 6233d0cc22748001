import Dispatch
import Foundation
import Tracking

/// Does all of a persisted model's storage input and output, in order, on one serial
/// background queue: writes the properties the model's actor changed, reads the stored
/// value when a change is reported, and posts what it stored or read to the inbox.
///
/// Changes arrive as patches numbered by the actor (a *generation*). Pending patches
/// merge (a newer change of a property replaces an older one), so a burst costs one
/// write; the ``SaveSchedule`` decides when that write happens. A write applies the
/// pending patch to the value stored *now* — inside ``SharedPersistenceStorage/update(_:)``
/// when the storage is shared, so concurrent writers merge property by property — and
/// posts the result with the generation it stored. A failed write is reported and its
/// patch goes back under any newer one, so the next write (a change, a flush, a
/// reconnect) retries it.
final class PersistenceWriter: Sendable {
  private struct State {
    var pending: Patch = [:]
    var pendingGeneration = 0
    var schedule: SaveSchedule
    var drainQueued = false
    var lastWriteFailed = false
    /// The last stored document this writer read or wrote intact: the base of a plain
    /// storage's writes, and the replacement for a corrupt shared value.
    var lastGood = StoredDocument()
    var saveCount = 0
    var failureCount = 0
  }

  let storage: any PersistenceStorage
  private let shared: (any SharedPersistenceStorage)?
  private let inbox: SyncInbox
  private let onError: @Sendable (PersistenceError) -> Void
  private let queue = DispatchQueue(label: "TrackingPersistence.writer")
  private let state: Locked<State>

  init(
    storage: any PersistenceStorage, policy: SavePolicy, stored: StoredDocument?, inbox: SyncInbox,
    onError: @escaping @Sendable (PersistenceError) -> Void
  ) {
    self.storage = storage
    shared = storage as? any SharedPersistenceStorage
    self.inbox = inbox
    self.onError = onError
    state = Locked(State(schedule: SaveSchedule(policy: policy), lastGood: stored ?? StoredDocument()))
  }

  var saveCount: Int { state.withLock { $0.saveCount } }
  var failureCount: Int { state.withLock { $0.failureCount } }
  var hasPendingChanges: Bool { state.withLock { !$0.pending.isEmpty } }

  /// Queues `patch` (generation `generation`) for writing, as the save policy says.
  func submit(_ patch: Patch, generation: Int) {
    let now = DispatchTime.now().uptimeNanoseconds
    let decision = state.withLock { state -> SaveSchedule.Decision in
      state.pending = state.pending.updated(with: patch)
      state.pendingGeneration = max(state.pendingGeneration, generation)
      return state.schedule.submitted(at: now)
    }
    act(on: decision)
  }

  /// Writes the pending changes now, on the caller's thread, after any input or output
  /// under way; then the inbox holds what was stored.
  func flush() throws(PersistenceError) {
    if let error = queue.sync(execute: { writePending() }) { throw error }
  }

  /// Reads the stored value (on the queue) and posts it; retries a failed write first.
  /// Called when the storage reports a change, and after a reconnect.
  func refresh() {
    queue.async { [self] in
      if state.withLock({ $0.lastWriteFailed && !$0.pending.isEmpty }) { _ = writePending() }
      do {
        let data = try storage.load()
        if let data, let document = try? StoredDocument(parsing: data) {
          state.withLock { $0.lastGood = document }
        }
        inbox.post(stored: data)
      } catch {
        onError(.readFailed(underlying: error))
      }
    }
  }

  /// Reads the stored value now, on the caller's thread, and posts it.
  func refreshNow() throws(PersistenceError) {
    let result: Result<Data?, any Error> = queue.sync { Result { try storage.load() } }
    switch result {
    case .success(let data): inbox.post(stored: data)
    case .failure(let error): throw .readFailed(underlying: error)
    }
  }

  /// Moves aside the stored value if it still is `expected` (a value another writer
  /// stored that the model can't read), storing `replacement` in its place; reports the
  /// location through `report`. Only for shared storages (a plain one has no other writer).
  func replaceUnreadable(
    _ expected: Data, reason: String, with replacement: Data,
    report: @escaping @Sendable (QuarantineLocation) -> Void
  ) {
    guard let shared else { return }
    queue.async { [self] in
      do {
        let result = try shared.update { stored in
          stored == expected ? .moveAside(reason: reason, replacement: replacement) : .keep
        }
        if let location = result.movedTo { report(location) }
        inbox.post(stored: result.stored)
      } catch {
        onError(.writeFailed(underlying: error))
      }
    }
  }

  private func act(on decision: SaveSchedule.Decision) {
    switch decision {
    case .writeNow:
      let enqueue = state.withLock { state -> Bool in
        defer { state.drainQueued = true }
        return !state.drainQueued
      }
      if enqueue {
        queue.async { [self] in
          state.withLock { $0.drainQueued = false }
          _ = writePending()
        }
      }
    case .wake(let time):
      queue.asyncAfter(deadline: DispatchTime(uptimeNanoseconds: time)) { [self] in
        let now = DispatchTime.now().uptimeNanoseconds
        act(on: state.withLock { $0.schedule.woke(at: now, hasPending: !$0.pending.isEmpty) })
      }
    case .wait:
      break
    }
  }

  /// Writes the pending patch, if any. Runs on `queue`.
  private func writePending() -> PersistenceError? {
    let (patch, generation, lastGood) = state.withLock { state -> (Patch, Int, StoredDocument) in
      defer { state.pending = [:] }
      return (state.pending, state.pendingGeneration, state.lastGood)
    }
    guard !patch.isEmpty else { return nil }
    do {
      let stored: StoredDocument
      if let shared {
        var unreadable: StoredDocument.Malformed?
        let result = try shared.update { data in
          var current = StoredDocument()
          do throws(StoredDocument.Malformed) {
            if let data { current = try StoredDocument(parsing: data) }
          } catch {
            // Someone stored something unreadable: keep it aside, store what we know.
            unreadable = error
            return .moveAside(reason: "corrupt: \(error)", replacement: lastGood.applying(patch).serialized())
          }
          let updated = current.applying(patch)
          return updated == current ? .keep : .replace(updated.serialized())
        }
        // What `update` stored is what `decide` returned or kept, so it parses.
        stored = result.stored.flatMap { try? StoredDocument(parsing: $0) } ?? StoredDocument()
        if let unreadable, let location = result.movedTo {
          onError(.corrupt(underlying: unreadable, movedTo: location))
        }
        inbox.post(stored: result.stored, acknowledging: generation)
      } else {
        stored = lastGood.applying(patch)
        let data = stored.serialized()
        try storage.save(data)
        inbox.post(stored: data, acknowledging: generation)
      }
      state.withLock { state in
        state.lastGood = stored
        state.saveCount += 1
        state.lastWriteFailed = false
      }
      return nil
    } catch {
      // Put the patch back under any newer one, for the next write to retry.
      state.withLock { state in
        state.failureCount += 1
        state.lastWriteFailed = true
        state.pending = patch.updated(with: state.pending)
      }
      let failure = PersistenceError.writeFailed(underlying: error)
      onError(failure)
      return failure
    }
  }
}
