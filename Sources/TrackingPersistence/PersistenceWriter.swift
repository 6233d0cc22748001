import Dispatch
import Foundation
import Tracking

/// Does all of a persisted model's storage input and output, in order, on one serial
/// background queue: writes the properties the model's actor changed, reads the stored
/// value when a change is reported, and posts what it stored or read to the inbox.
///
/// **Writing.** The actor tells the writer of each change as it happens (``changed()``,
/// cheap: no encoding); the ``SaveSchedule`` decides when to write. When it is time,
/// the actor encodes the changed properties into a patch numbered by the actor (a
/// *generation*) and submits it — at the end of the transaction for a write due now, or
/// when the writer asks (a debounce or throttle wake-up; see ``SyncInbox``). Pending
/// patches merge (a newer change of a property replaces an older one), so a burst costs
/// one write. A write applies the pending patch to the value stored *now* — inside
/// ``SharedPersistenceStorage/update(_:)`` when the storage is shared, so concurrent
/// writers merge property by property, a ``ConflictResolver`` deciding where both
/// changed a property — and posts the result with the generation it stored.
///
/// **Failures.** A failed write is reported (to `onError`, and to the actor through the
/// inbox), and its patch goes back under any newer one. A transient failure (see
/// ``isTransientFailure(_:)``) is retried in the background with backoff (50 ms,
/// doubling, at most 2 s apart); any failure is also retried by the next change, flush
/// or reconnect. Background retries are not reported again: the status says it.
///
/// **Waiting.** The actor never waits for the queue longer than the storage's
/// ``PersistenceStorage/timeout``: ``flush(timeout:)``, ``refreshNow(timeout:)`` and
/// ``load(timeout:)`` give up then (the work goes on in the background).
final class PersistenceWriter: Sendable {
  private struct State {
    var pending: Patch = [:]
    var pendingGeneration = 0
    var schedule: SaveSchedule
    var drainQueued = false
    /// The actor holds changes it has not encoded yet (the schedule said "later").
    var actorHoldsChanges = false
    /// The last write's failure; `nil` once a write succeeds.
    var lastWriteError: PersistenceError?
    /// The last stored document this writer read or wrote intact: the base of a plain
    /// storage's writes, and the replacement for a corrupt shared value.
    var lastGood = StoredDocument()
    /// The stored bytes this writer last read or wrote: a read that finds them again
    /// brings nothing new (see ``SyncInbox/Snapshot/needsMerge``).
    var lastSeen: Data?
    /// A write is under way (its patch left `pending`).
    var isWriting = false
    var saveCount = 0
    var failureCount = 0
    var retry = Backoff()
    var probe = Backoff()
    var isClosed = false
  }

  let storage: any PersistenceStorage
  private let shared: (any SharedPersistenceStorage)?
  private let inbox: SyncInbox
  private let resolver: ConflictResolver?
  private let onError: @Sendable (PersistenceError) -> Void
  private let queue = DispatchQueue(label: "TrackingPersistence.writer", qos: .userInitiated)
  private let state: Locked<State>

  init(
    storage: any PersistenceStorage, policy: SavePolicy, inbox: SyncInbox, resolver: ConflictResolver?,
    onError: @escaping @Sendable (PersistenceError) -> Void
  ) {
    self.storage = storage
    shared = storage as? any SharedPersistenceStorage
    self.inbox = inbox
    self.resolver = resolver
    self.onError = onError
    state = Locked(State(schedule: SaveSchedule(policy: policy)))
  }

  var saveCount: Int { state.withLock { $0.saveCount } }
  var failureCount: Int { state.withLock { $0.failureCount } }
  /// Whether changes wait to be written, or are being written.
  var hasPendingChanges: Bool { state.withLock { !$0.pending.isEmpty || $0.isWriting } }
  var lastWriteError: PersistenceError? { state.withLock { $0.lastWriteError } }

  /// The model was restored from `stored` (`nil`: nothing usable was stored).
  func restored(from stored: StoredDocument?) {
    state.withLock { $0.lastGood = stored ?? StoredDocument() }
  }

  /// Stops retries and probes (the ``Persisted`` is going away).
  func close() {
    state.withLock { $0.isClosed = true }
  }

  // MARK: Writing

  /// A change happened now (the actor marked it; nothing is encoded yet). Returns
  /// whether the actor should encode and submit its changes at the end of the
  /// transaction; otherwise the writer asks for them when the schedule says.
  func changed() -> Bool {
    let now = DispatchTime.now().uptimeNanoseconds
    let decision = state.withLock { state -> SaveSchedule.Decision in
      let decision = state.schedule.submitted(at: now)
      if decision != .writeNow { state.actorHoldsChanges = true }
      return decision
    }
    if case .wake(let time) = decision { wake(at: time) }
    return decision == .writeNow
  }

  /// Queues `patch` (generation `generation`) for writing: now, with `writeNow`, or
  /// with the write the schedule decides. An empty patch with `writeNow` writes what
  /// is pending.
  func submit(_ patch: Patch, generation: Int, writeNow: Bool) {
    let enqueue = state.withLock { state -> Bool in
      state.pending = state.pending.updated(with: patch)
      state.pendingGeneration = max(state.pendingGeneration, generation)
      state.actorHoldsChanges = false
      guard writeNow, !state.pending.isEmpty, !state.drainQueued else { return false }
      state.drainQueued = true
      return true
    }
    if enqueue {
      queue.async { [self] in
        state.withLock { $0.drainQueued = false }
        _ = writePending(isRetry: false)
      }
    }
  }

  /// Writes the pending changes, after any input or output under way; waits at most
  /// `timeout` seconds. Then the inbox holds what was stored.
  /// - Throws: The write's failure, or ``StorageTimeout`` (the write goes on).
  func flush(timeout: Double) throws(PersistenceError) {
    guard let outcome = onQueue(within: timeout, { [self] in writePending(isRetry: false) }) else {
      throw .writeFailed(underlying: StorageTimeout(waitingFor: "the storage to write", seconds: timeout))
    }
    if let error = outcome { throw error }
  }

  private func wake(at time: UInt64) {
    queue.asyncAfter(deadline: DispatchTime(uptimeNanoseconds: time)) { [self] in
      let now = DispatchTime.now().uptimeNanoseconds
      let (decision, askActor) = state.withLock { state in
        (state.schedule.woke(at: now, hasPending: !state.pending.isEmpty || state.actorHoldsChanges),
         state.actorHoldsChanges)
      }
      switch decision {
      case .writeNow where askActor: inbox.requestEncode()  // it submits with `writeNow`
      case .writeNow: _ = writePending(isRetry: false)
      case .wake(let time): wake(at: time)
      case .wait: break
      }
    }
  }

  /// Writes the pending patch, if any. Runs on `queue`.
  private func writePending(isRetry: Bool) -> PersistenceError? {
    let (patch, generation, lastGood) = state.withLock { state -> (Patch, Int, StoredDocument) in
      defer {
        state.isWriting = !state.pending.isEmpty
        state.pending = [:]
      }
      return (state.pending, state.pendingGeneration, state.lastGood)
    }
    guard !patch.isEmpty else { return nil }
    defer { state.withLock { $0.isWriting = false } }
    do {
      let stored: StoredDocument
      if let shared {
        var unreadable: StoredDocument.Malformed?
        var foreign = true
        let resolver = resolver
        let result = try shared.update { data in
          var current = StoredDocument()
          do throws(StoredDocument.Malformed) {
            if let data { current = try StoredDocument(parsing: data) }
          } catch {
            // Someone stored something unreadable: keep it aside, store what we know.
            unreadable = error
            return .moveAside(reason: "corrupt: \(error)", replacement: lastGood.applying(patch).serialized())
          }
          let updated = current.applying(patch, resolving: resolver)
          // Anything beyond this writer's own patch on what it last knew: someone else's change.
          foreign = updated != lastGood.applying(patch)
          return updated == current ? .keep : .replace(updated.serialized())
        }
        // What `update` stored is what `decide` returned or kept, so it parses.
        stored = result.stored.flatMap { try? StoredDocument(parsing: $0) } ?? StoredDocument()
        if let unreadable, let location = result.movedTo {
          onError(.corrupt(underlying: unreadable, movedTo: location))
        }
        state.withLock { $0.lastSeen = result.stored }
        inbox.post(stored: result.stored, acknowledging: generation, needsMerge: foreign || unreadable != nil)
      } else {
        stored = lastGood.applying(patch)
        let data = stored.serialized()
        try storage.save(data)
        state.withLock { $0.lastSeen = data }
        inbox.post(stored: data, acknowledging: generation, needsMerge: false)
      }
      state.withLock { state in
        state.lastGood = stored
        state.saveCount += 1
        state.lastWriteError = nil
        state.retry = Backoff()
      }
      return nil
    } catch {
      let failure = PersistenceError.writeFailed(underlying: error)
      // Put the patch back under any newer one, for the next write to retry.
      let retryAfter = state.withLock { state -> Double? in
        state.failureCount += 1
        state.lastWriteError = failure
        state.pending = patch.updated(with: state.pending)
        guard isTransientFailure(error), !state.isClosed, !state.retry.isScheduled else { return nil }
        return state.retry.schedule()
      }
      inbox.post(writeFailure: failure)
      if !isRetry { onError(failure) }
      if let retryAfter {
        queue.asyncAfter(deadline: .now() + retryAfter) { [self] in
          state.withLock { $0.retry.fired() }
          _ = writePending(isRetry: true)
        }
      }
      return failure
    }
  }

  // MARK: Reading

  /// Reads the stored value (on the queue) and posts it; retries a failed write first.
  /// Called when the storage reports a change, and after a reconnect.
  func refresh() {
    queue.async { [self] in
      if state.withLock({ $0.lastWriteError != nil && !$0.pending.isEmpty }) { _ = writePending(isRetry: false) }
      do {
        let data = try storage.load()
        let document = data.flatMap { try? StoredDocument(parsing: $0) }
        let isNew = state.withLock { state -> Bool in
          if let document { state.lastGood = document }
          defer { state.lastSeen = data }
          return data != state.lastSeen
        }
        inbox.post(stored: data, needsMerge: isNew)  // this writer's own write, read back: nothing to merge
      } catch {
        onError(.readFailed(underlying: error))
      }
    }
  }

  /// Reads the stored value now (after any input or output under way), waiting at most
  /// `timeout` seconds, and posts it.
  func refreshNow(timeout: Double) throws(PersistenceError) {
    let data: Data?
    do {
      data = try load(timeout: timeout)
    } catch {
      throw .readFailed(underlying: error)
    }
    inbox.post(stored: data)
  }

  /// The stored value, read on the queue (after any input or output under way); waits
  /// at most `timeout` seconds, then throws ``StorageTimeout`` (the read goes on).
  func load(timeout: Double) throws -> Data? {
    guard let result = onQueue(within: timeout, { [storage] in Result { try storage.load() } }) else {
      throw StorageTimeout(waitingFor: "the storage to read", seconds: timeout)
    }
    return try result.get()
  }

  /// Tries reading in the background, with backoff, until the storage answers (or
  /// fails for a reason that is not transient); then asks the actor to restore.
  func probeUntilAvailable() {
    let delay = state.withLock { state -> Double? in
      guard !state.isClosed, !state.probe.isScheduled else { return nil }
      return state.probe.schedule()
    }
    guard let delay else { return }
    queue.asyncAfter(deadline: .now() + delay) { [self] in
      guard state.withLock({ state in
        state.probe.fired()
        return !state.isClosed
      })
      else { return }
      do {
        _ = try storage.load()
      } catch where isTransientFailure(error) {
        return probeUntilAvailable()
      } catch {}  // a permanent failure: the actor's attempt reports it
      state.withLock { $0.probe = Backoff() }
      inbox.postRestoreReady()
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
        state.withLock { $0.lastSeen = result.stored }
        inbox.post(stored: result.stored)
      } catch {
        onError(.writeFailed(underlying: error))
      }
    }
  }

  /// Runs `work` on the queue (after what is queued) and waits for it at most
  /// `timeout` seconds; `nil` if it did not finish by then (it still runs).
  private func onQueue<Value: Sendable>(within timeout: Double, _ work: @escaping @Sendable () -> Value) -> Value? {
    let result = Locked<Value?>(nil)
    let item = DispatchWorkItem { result.withLock { $0 = work() } }
    queue.async(execute: item)
    guard item.wait(timeout: .now() + timeout) == .success else { return nil }
    return result.withLock { $0 }
  }
}

/// Delays between retries: 50 ms, doubling, at most 2 s; one scheduled at a time.
struct Backoff {
  private var next = 0.05
  private(set) var isScheduled = false

  /// Marks a retry as scheduled and returns its delay, in seconds.
  mutating func schedule() -> Double {
    isScheduled = true
    defer { next = min(next * 2, 2) }
    return next
  }

  /// The scheduled retry runs.
  mutating func fired() {
    isScheduled = false
  }
}
