import Foundation
import Tracking

/// The model's side of persistence, on the model's actor: records the model's changes
/// as patches for the writer, and merges the stored values the writer posts back into
/// the live model.
///
/// **State.** `local` is the model's encoding as last recorded, split by property.
/// `unsaved` names the properties changed here whose newest change the storage has not
/// yet acknowledged, with the generation of that change.
///
/// **Merging a stored value.** Every property takes the stored value, except the
/// unsaved ones, which keep the local value (their write is on its way and, committing
/// later, wins). If that differs from `local`, a model is decoded from it and handed to
/// `reload`, so only properties whose values differ are set. The model's own writes
/// come back as values equal to `local`: nothing happens. A stored value the model
/// can't read is moved aside and replaced with the good state (see
/// ``replaceUnreadable(_:document:error:)``); the model keeps its state.
///
/// Isolation: every method runs on the model's actor (``Persisted`` calls them there).
final class ModelSync<Model: Codable & AnyObject> {
  let model: Model
  let writer: PersistenceWriter
  private let inbox: SyncInbox
  private let schema: PersistenceSchema<Model>?
  private let reload: ((Model, Model) -> Void)?
  private let onError: @Sendable (PersistenceError) -> Void
  private let encoder: JSONEncoder

  private var local = StoredDocument()
  private var unsaved: [String: Int] = [:]
  private var generation = 0
  private var lastSequence = 0
  private var reportedIncomplete: Set<String> = []
  private(set) var reloadCount = 0
  /// Set when another writer stored a newer schema version: nothing more is written.
  private(set) var isStopped = false

  init(
    model: Model, writer: PersistenceWriter, inbox: SyncInbox, schema: PersistenceSchema<Model>?,
    reload: ((Model, Model) -> Void)?, onError: @escaping @Sendable (PersistenceError) -> Void
  ) {
    self.model = model
    self.writer = writer
    self.inbox = inbox
    self.schema = schema
    self.reload = reload
    self.onError = onError
    encoder = JSONEncoder()
    // Sorted keys: equal states encode to equal bytes, property by property.
    encoder.outputFormatting = [.sortedKeys]
  }

  /// Takes the restored state as the starting point, and writes what must be written
  /// at once: the whole model when nothing was stored (the defaults: only properties
  /// no other writer stored meanwhile), or the migrated model.
  func start(restoredFrom stored: StoredDocument?, migrated: Bool) {
    guard let encoded = encodeModel() else { return }
    local = encoded
    if stored != nil, !migrated { return }
    let base = stored ?? StoredDocument()
    var patch = Patch()
    for key in encoded.changedKeys(comparedTo: base) {
      patch[key] = encoded.fields[key].map { stored == nil ? .setIfAbsent($0) : .set($0) } ?? .remove
    }
    submit(patch)
  }

  /// Encodes the model and submits the properties that changed since the last call.
  /// Run inside a tracking scope, it also observes everything the encoding reads.
  @discardableResult
  func record() -> PersistenceError? {
    recordReadsOfAllTrackedProperties(in: model)
    guard !isStopped else { return nil }
    let encoded: StoredDocument
    switch encode(model) {
    case .success(let document): encoded = document
    case .failure(let error):
      onError(error)
      return error
    }
    let changed = encoded.changedKeys(comparedTo: local)
    guard !changed.isEmpty else { return nil }
    var patch = Patch()
    for key in changed { patch[key] = encoded.fields[key].map(FieldChange.set) ?? .remove }
    local = encoded
    submit(patch)
    return nil
  }

  /// Applies what the writer posted: acknowledgements, then the newest stored value.
  func processInbox() {
    record()  // local changes not yet recorded must count as unsaved before merging
    let (snapshot, acknowledged) = inbox.take()
    unsaved = unsaved.filter { $0.value > acknowledged }
    guard let snapshot, snapshot.sequence > lastSequence else { return }
    lastSequence = snapshot.sequence
    merge(snapshot.data)
  }

  private func submit(_ patch: Patch) {
    guard !patch.isEmpty, !isStopped else { return }
    generation += 1
    for key in patch.keys { unsaved[key] = generation }
    writer.submit(patch, generation: generation)
  }

  // MARK: Merging a stored value

  private func merge(_ data: Data?) {
    guard let reload, !isStopped else { return }
    guard let data else {
      // The value was deleted: store the model's state again.
      var patch = Patch()
      for (key, value) in local.fields { patch[key] = .setIfAbsent(value) }
      submit(patch)
      return
    }
    let remote: StoredDocument
    do {
      remote = try StoredDocument(parsing: data)
    } catch {
      replaceUnreadable(data, document: local, error: { .corrupt(underlying: error, movedTo: $0) })
      return
    }
    var merged = remote
    for key in unsaved.keys { merged.fields[key] = local.fields[key] }
    guard merged != local else { return }  // our own write, or nothing new

    let version: Int
    do {
      version = try storedSchemaVersion(of: remote)
    } catch {
      replaceUnreadable(data, document: local, error: mismatch(error))
      return
    }
    let supported = schema?.version ?? 0
    if version > supported {
      isStopped = true
      onError(.newerSchemaVersion(stored: version, supported: supported))
      return
    }
    guard let decoded = decode(merged, storedVersion: version, data: data) else { return }
    let newer = decoded.model
    if let error = decoded.firstError {
      // Keep the readable part of the other writer's value; replace the rest with ours.
      var replacement = remote
      for key in decoded.repairedKeys { replacement.fields[key] = local.fields[key] }
      replaceUnreadable(data, document: replacement, error: mismatch(error))
    }
    guard let target = encodeModel(newer) else { return }
    if target != local {
      reload(model, newer)
      reloadCount += 1
      guard let after = encodeModel() else { return }
      let missed = Set(after.changedKeys(comparedTo: target)).subtracting(reportedIncomplete)
      if !missed.isEmpty {
        reportedIncomplete.formUnion(missed)
        onError(.reloadIncomplete(properties: missed.sorted()))
      }
      local = after
    }
    if version < supported {
      // Another writer stored an older version: write the migrated form back.
      var patch = Patch()
      for key in local.changedKeys(comparedTo: remote) {
        patch[key] = local.fields[key].map(FieldChange.set) ?? .remove
      }
      submit(patch)
    }
  }

  /// A model decoded from a merged document; properties that didn't decode took their
  /// local values (`repairedKeys`, the first failure being `firstError`).
  private struct Decoded {
    var model: Model
    var repairedKeys: [String] = []
    var firstError: DecodingError?
  }

  /// Decodes the merged document, migrating it if it is of an older version. A property
  /// that doesn't decode takes its local value; a value that can't be read at all is
  /// replaced whole, and `nil` is returned.
  private func decode(_ merged: StoredDocument, storedVersion: Int, data: Data) -> Decoded? {
    let supported = schema?.version ?? 0
    if storedVersion < supported, let schema {
      do {
        return Decoded(model: try schema.migrate(StoredModelValue(version: storedVersion, data: merged.serialized())))
      } catch {
        replaceUnreadable(
          data, document: local,
          error: { .migrationFailed(underlying: error, fromVersion: storedVersion, movedTo: $0) })
        return nil
      }
    }
    var attempt = merged
    var repairedKeys: [String] = []
    var firstError: DecodingError?
    // Each round repairs one property, so there are at most as many rounds as properties.
    for _ in 0...merged.fields.count {
      do {
        let model = try JSONDecoder().decode(Model.self, from: attempt.serialized())
        return Decoded(model: model, repairedKeys: repairedKeys, firstError: firstError)
      } catch let error as DecodingError {
        if firstError == nil { firstError = error }
        guard let key = error.topLevelKey, !repairedKeys.contains(key), attempt.fields[key] != local.fields[key]
        else { break }
        attempt.fields[key] = local.fields[key]
        repairedKeys.append(key)
      } catch {
        replaceUnreadable(data, document: local, error: { .corrupt(underlying: error, movedTo: $0) })
        return nil
      }
    }
    // Not a matter of single properties (or every round failed): replace it whole.
    if let firstError { replaceUnreadable(data, document: local, error: mismatch(firstError)) }
    return nil
  }

  private func mismatch(_ error: any Error) -> (QuarantineLocation) -> PersistenceError {
    if let decodingError = error as? DecodingError {
      return { .schemaMismatch(underlying: decodingError, movedTo: $0) }
    }
    return { .corrupt(underlying: error, movedTo: $0) }
  }

  /// Asks the writer to move `data` aside (if it is still what is stored) and store
  /// `document`; reports `error` with the place it went.
  private func replaceUnreadable(
    _ data: Data, document: StoredDocument, error: @escaping (QuarantineLocation) -> PersistenceError
  ) {
    let onError = onError
    let makeError = UncheckedSendable(error)  // only called once, by the writer, to build the value it reports
    writer.replaceUnreadable(data, reason: "unreadable value from another writer", with: document.serialized()) {
      onError(makeError.value($0))
    }
  }

  // MARK: Encoding

  private func encodeModel(_ value: Model? = nil) -> StoredDocument? {
    switch encode(value ?? model) {
    case .success(let document): return document
    case .failure(let error):
      onError(error)
      return nil
    }
  }

  private func encode(_ value: Model) -> Result<StoredDocument, PersistenceError> {
    do {
      var document = try StoredDocument(parsing: try encoder.encode(value))
      if let schema, document.fields[StoredDocument.wholeValueKey] == nil {
        document.fields[schemaVersionKey] = Data("\(schema.version)".utf8)
      }
      return .success(document)
    } catch {
      return .failure(.encodingFailed(underlying: error))
    }
  }
}

extension DecodingError {
  /// The top-level property the error is about, if it is about one.
  fileprivate var topLevelKey: String? {
    switch self {
    case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
      return context.codingPath.first?.stringValue
    case .keyNotFound(let key, let context):
      return context.codingPath.first?.stringValue ?? key.stringValue
    @unknown default:
      return nil
    }
  }
}
