import Foundation
import Tracking

/// The model's side of persistence, on the model's actor: turns the model's changes
/// into patches for the writer, keeps the status, and merges the stored values the
/// writer posts back into the live model (see ModelSync+Merge.swift) — including the
/// first one, when the storage could not be read at launch.
///
/// **State.** `local` is the model's encoding as last encoded, split by top-level
/// property. `unsaved` names the properties changed here whose newest change the
/// storage has not yet acknowledged, with the generation of that change. Changes not
/// yet encoded are the ``ChangeRecorder``'s marks.
///
/// **Cost of a change.** A change marks its top-level key (the recorder's observation
/// runs inside its `willSet`) and tells the writer's schedule; nothing is encoded. At
/// the end of the transaction (for a write due now), or when the writer asks (a
/// debounce or throttle that is due), the marked properties — and the model's keys that
/// no tracked property stands for — are encoded, each alone, and compared with `local`:
/// the actor's work is proportional to the changed properties, not to the model.
///
/// Isolation: every method runs on the model's actor (``Persisted`` calls them there;
/// the hops it schedules run there).
final class ModelSync<Model: Trackable & Codable> {
  /// Where saving stands: before the stored value could be read, running, or off.
  enum Phase {
    /// The storage could not be read: nothing is written until it is. `baseline` is
    /// the model's encoding at launch (the changes since are the keys that differ).
    case unrestored(PersistenceError, transient: Bool, baseline: StoredDocument)
    case running
    /// Saving is off for this run, to keep what is stored.
    case disabled(PersistenceError)
  }

  let model: Model
  let writer: PersistenceWriter
  let inbox: SyncInbox
  let storage: any PersistenceStorage
  let schema: PersistenceSchema<Model>?
  let reload: ((Model, Model) -> Void)?
  let onError: @Sendable (PersistenceError) -> Void
  let actor: any Actor
  let statusCell: StatusCell
  private let fieldEncoder = FieldEncoder()
  let recorder: ChangeRecorder

  private(set) var phase: Phase = .running
  var local = StoredDocument()
  var unsaved: [String: Int] = [:]
  private var generation = 0
  private var lastSequence = 0
  var reportedIncomplete: Set<String> = []
  var reloadCount = 0
  /// The model's encoding is not a flat object of properties: it is encoded whole.
  private var encodesWhole = false
  /// The top-level keys the model's encoding visits.
  private var knownKeys: Set<String> = []
  /// The top-level keys no tracked property of the model is named after (untracked
  /// stored properties, keys a custom `encode(to:)` computes): encoded with every change.
  private var untrackedKeys: Set<String> = []
  private var writeError: PersistenceError?
  private var status: PersistenceStatus
  private var hopScheduled = false
  private var writeAtEndOfTransaction = false
  /// Set while `reload` runs: its changes are the stored values, not changes to save.
  var isReloading = false

  init(
    model: Model, writer: PersistenceWriter, inbox: SyncInbox, storage: any PersistenceStorage,
    schema: PersistenceSchema<Model>?, reload: ((Model, Model) -> Void)?, actor: any Actor,
    onError: @escaping @Sendable (PersistenceError) -> Void
  ) {
    self.model = model
    self.writer = writer
    self.inbox = inbox
    self.storage = storage
    self.schema = schema
    self.reload = reload
    self.actor = actor
    self.onError = onError
    status = .saved
    statusCell = StatusCell(.saved)
    recorder = ChangeRecorder(actor: actor)
    recorder.onMark = { [unowned self] in marked() }
  }

  // MARK: Starting

  /// Starts from what restoring at launch produced: observes the model, and writes
  /// what must be written at once — the defaults when nothing was stored (only the
  /// properties no other writer stored meanwhile), or the migrated model — whatever
  /// the save policy (it still opens a throttle window).
  func start(_ outcome: Restore<Model>.State) {
    let encoded = encodeWholeReporting(model) ?? StoredDocument()
    local = encoded
    recorder.start(model, keys: knownKeys)
    switch outcome {
    case .restored(let stored, let migrated):
      writer.restored(from: stored)
      if stored == nil || migrated {
        var patch = Patch()
        for key in encoded.changedKeys(comparedTo: stored ?? StoredDocument()) {
          if let stored {
            patch[key] = change(to: encoded.fields[key], from: stored.fields[key])
          } else {
            patch[key] = encoded.fields[key].map(FieldChange.setIfAbsent)
          }
        }
        _ = writer.changed()
        submit(patch, writeNow: true)
      }
    case .unavailable(let error, let transient):
      phase = .unrestored(error, transient: transient, baseline: encoded)
      if transient { writer.probeUntilAvailable() }
    case .disabled(let error):
      phase = .disabled(error)
    }
    updateStatus()
  }

  /// Stops observing the model.
  func stop() {
    recorder.stop()
  }

  // MARK: Recording changes

  /// Whether anything is not stored yet: changes not encoded, patches not written, or
  /// everything (the stored value was never read, or saving is off).
  var hasUnsavedChanges: Bool {
    guard case .running = phase else { return true }
    return recorder.hasChanges || writer.hasPendingChanges
  }

  /// Whether the model changed since launch while nothing could be saved (the stored
  /// value was never read, or saving is off): those changes are lost when it goes away.
  var hasChangesThatCannotBeSaved: Bool {
    switch phase {
    case .running: return false
    case .disabled: return recorder.hasChanges
    case .unrestored(_, _, let baseline):
      _ = encodeMarked()
      return local != baseline
    }
  }

  /// Why nothing can be saved now, if so.
  var blockingError: PersistenceError? {
    switch phase {
    case .running: nil
    case .unrestored(let error, _, _), .disabled(let error): error
    }
  }

  /// Encodes the marked changes and hands them to the writer (writing at once with
  /// `writeNow`). Before the stored value was read, only `local` is brought up to date.
  @discardableResult
  func record(writeNow: Bool = false) -> PersistenceError? {
    switch phase {
    case .disabled: return nil
    case .unrestored:
      if case .failure(let error) = encodeMarked() { return error }
      return nil
    case .running:
      switch encodeMarked() {
      case .failure(let error): return error
      case .success(let patch):
        if !patch.isEmpty || writeNow { submit(patch, writeNow: writeNow) }
        return nil
      }
    }
  }

  func submit(_ patch: Patch, writeNow: Bool) {
    guard case .running = phase else { return }
    if !patch.isEmpty {
      generation += 1
      for key in patch.keys { unsaved[key] = generation }
    }
    writer.submit(patch, generation: generation, writeNow: writeNow)
  }

  /// A change was marked (inside its `willSet`, on the actor): tell the schedule, and
  /// make sure the end of the transaction is handled (a write due now, the status).
  /// Reads no tracked property: this runs inside the recorder's observation.
  private func marked() {
    // Before the stored value is read (or with saving off) nothing is scheduled: the
    // marks wait, and `hasUnsavedChanges` is true anyway.
    guard !isReloading, case .running = phase else { return }
    if writer.changed() { writeAtEndOfTransaction = true }
    guard !hopScheduled, writeAtEndOfTransaction || status != .saving else { return }
    hopScheduled = true
    let work = UncheckedSendable<() -> Void>({ [weak self] in self?.transactionEnded() })
    let actor = actor
    Task { await runOnActor(actor, work) }
  }

  private func transactionEnded() {
    hopScheduled = false
    if writeAtEndOfTransaction {
      writeAtEndOfTransaction = false
      record(writeNow: true)
    }
    updateStatus()
  }

  /// Applies what the writer posted: a request to encode, the storage being back,
  /// acknowledgements and write outcomes, then the newest stored value.
  func processInbox() {
    let news = inbox.take()
    if news.restoreReady, case .unrestored = phase { _ = restoreNow() }
    if news.encodeRequested { record(writeNow: true) }
    unsaved = unsaved.filter { $0.value > news.acknowledged }
    if let outcome = news.writeOutcome { writeError = outcome }
    if let snapshot = news.snapshot, snapshot.sequence > lastSequence {
      lastSequence = snapshot.sequence
      if snapshot.needsMerge { merge(snapshot.data) }
    }
    updateStatus()
  }

  /// Sets the status (notifying its observers) if it changed.
  func updateStatus() {
    let now: PersistenceStatus
    switch phase {
    case .disabled(let error): now = .disabled(error)
    case .unrestored(let error, let transient, _): now = transient ? .restoring(lastError: error) : .failed(error)
    case .running:
      if let writeError {
        now = .failed(writeError)
      } else if recorder.hasChanges || !unsaved.isEmpty || writer.hasPendingChanges {
        now = .saving
      } else {
        now = .saved
      }
    }
    guard now != status else { return }
    status = now
    statusCell.value = now
  }

  /// Saving is off from now on (another writer stored a newer schema version).
  func disable(_ error: PersistenceError) {
    phase = .disabled(error)
    updateStatus()
  }

  // MARK: Restoring after launch

  /// Tries to read the stored value again (the storage was unavailable at launch), and
  /// merges it into the model: what changed here since launch keeps its local value
  /// and is written; the rest takes the stored value (a ``ReloadableModel``). Returns
  /// the failure if it is still unavailable (or saving is now off).
  func restoreNow() -> PersistenceError? {
    guard case .unrestored(_, _, let baseline) = phase else { return blockingError }
    _ = encodeMarked()  // `local` is the model as it is now
    let timeout = storage.timeout
    let outcome = Restore<Model>.run(load: { try writer.load(timeout: timeout) }, from: storage, schema: schema)
    switch outcome.state {
    case .unavailable(let error, let transient):
      phase = .unrestored(error, transient: transient, baseline: baseline)
      if transient { writer.probeUntilAvailable() }
      updateStatus()
      return error
    case .disabled(let error):
      onError(error)
      disable(error)
      return error
    case .restored(let stored, let migrated):
      if let error = outcome.error { onError(error) }  // a value moved aside
      phase = .running
      writer.restored(from: stored)
      let changedHere = local.changedKeys(comparedTo: baseline)
      var patch = Patch()
      if let stored {
        let target = migrated ? (outcome.model.flatMap(encodeWholeReporting) ?? stored) : stored
        for key in changedHere { unsaved[key] = generation + 1 }  // kept local by the merge
        merge(target.serialized())
        for key in changedHere { patch[key] = change(to: local.fields[key], from: baseline.fields[key]) }
        if migrated {
          for key in local.changedKeys(comparedTo: stored) where patch[key] == nil {
            patch[key] = change(to: local.fields[key], from: stored.fields[key])
          }
        }
      } else {
        for (key, value) in local.fields {
          patch[key] = changedHere.contains(key) ? .set(value, base: nil) : .setIfAbsent(value)
        }
      }
      _ = writer.changed()
      submit(patch, writeNow: true)
      updateStatus()
      return nil
    }
  }

  // MARK: Encoding

  /// Encodes the marked properties; the patch of those whose encoding changed (with
  /// the values they were changed from as bases). On failure the marks stay, and the
  /// failure is reported.
  func encodeMarked() -> Result<Patch, PersistenceError> {
    let changes = recorder.take()
    guard !changes.isEmpty else { return .success([:]) }
    var patch = Patch()
    do {
      if !encodesWhole, !changes.everything {
        let selection = changes.keys.union(untrackedKeys)
        if let encoded = try fieldEncoder.encode(model, keys: .keys(selection)) {
          if !encoded.visited.isSubset(of: knownKeys) { learn(keys: knownKeys.union(encoded.visited)) }
          for key in selection where encoded.values[key] != local.fields[key] {
            patch[key] = change(to: encoded.values[key], from: local.fields[key])
            local.fields[key] = encoded.values[key]
          }
          recorder.rewatch(properties: selection)
          return .success(patch)
        }
        encodesWhole = true  // not splittable by property: from now on, whole
      }
      let encoded = try encodeWhole(model)
      for key in encoded.changedKeys(comparedTo: local) {
        patch[key] = change(to: encoded.fields[key], from: local.fields[key])
      }
      local = encoded
      recorder.rewatch(properties: nil)
      return .success(patch)
    } catch {
      recorder.restore(changes)
      let failure = PersistenceError.encodingFailed(underlying: error)
      onError(failure)
      return .failure(failure)
    }
  }

  /// Encodes `value` whole, split by top-level property, with the schema version.
  /// (For the live model, also learns its keys.)
  func encodeWhole(_ value: Model) throws -> StoredDocument {
    var document = StoredDocument()
    if !encodesWhole, let fields = try fieldEncoder.encode(value, keys: .all) {
      document.fields = fields.values
      if value === model { learn(keys: fields.visited) }
    } else {
      encodesWhole = true
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys]
      document = try StoredDocument(parsing: try encoder.encode(value))
      if value === model { learn(keys: Set(document.fields.keys)) }
    }
    if let schema, document.fields[StoredDocument.wholeValueKey] == nil {
      document.fields[schemaVersionKey] = Data("\(schema.version)".utf8)
    }
    return document
  }

  /// ``encodeWhole(_:)``, reporting a failure (`nil`).
  func encodeWholeReporting(_ value: Model) -> StoredDocument? {
    do {
      return try encodeWhole(value)
    } catch {
      onError(.encodingFailed(underlying: error))
      return nil
    }
  }

  /// The model's encoding has the top-level keys `keys`: the recorder marks by them,
  /// and those no tracked property is named after are encoded with every change.
  private func learn(keys: Set<String>) {
    knownKeys = keys
    recorder.update(keys: keys)
    let tracked = Set(TrackedObject(model).levels.flatMap(\.names))
    untrackedKeys = keys.subtracting(tracked).subtracting([schemaVersionKey])
  }

  private func change(to value: Data?, from base: Data?) -> FieldChange {
    value.map { .set($0, base: base) } ?? .remove(base: base)
  }
}

/// Runs `work` on `actor`.
func runOnActor(_ actor: isolated any Actor, _ work: UncheckedSendable<() -> Void>) {
  work.value()
}
