import Foundation
import Tracking

/// Merging a stored value into the live model.
///
/// Every property takes the stored value, except the unsaved ones, which keep the
/// local value (their write is on its way and, committing later, wins). If that
/// differs from `local`, a model is decoded from it and handed to `reload`, so only
/// properties whose values differ are set. The model's own writes come back as values
/// equal to `local` (and are not even parsed when nobody else wrote meanwhile: see
/// ``SyncInbox/Snapshot/needsMerge``). A stored value the model can't read is moved
/// aside and replaced with the good state (see ``replaceUnreadable(_:document:error:)``);
/// the model keeps its state.
extension ModelSync {
  func merge(_ data: Data?) {
    guard let reload, case .running = phase else { return }
    guard let data else {
      // The value was deleted: store the model's state again.
      var patch = Patch()
      for (key, value) in local.fields { patch[key] = .setIfAbsent(value) }
      submit(patch, writeNow: true)
      return
    }
    let remote: StoredDocument
    do {
      remote = try StoredDocument(parsing: data)
    } catch {
      replaceUnreadable(data, document: local, error: { .corrupt(underlying: error, movedTo: $0) })
      return
    }
    // Properties changed here and not yet written keep their local values: those with
    // a write on its way (`unsaved`), and those only marked so far.
    var merged = remote
    for key in unsaved.keys { merged.fields[key] = local.fields[key] }
    if let marked = recorder.markedKeys {
      for key in marked { merged.fields[key] = local.fields[key] }
      guard merged != local else { return }  // our own write, or nothing new
    }
    if recorder.hasChanges {
      // A reload is coming: encode the marked properties first, so that it keeps their
      // current values (and they are written, as the save policy says).
      record()
      merged = remote
      for key in unsaved.keys { merged.fields[key] = local.fields[key] }
      guard merged != local else { return }
    }

    let version: Int
    do {
      version = try storedSchemaVersion(of: remote)
    } catch {
      replaceUnreadable(data, document: local, error: mismatch(error))
      return
    }
    let supported = schema?.version ?? 0
    if version > supported {
      let error = PersistenceError.newerSchemaVersion(stored: version, supported: supported)
      onError(error)
      disable(error)
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
    guard let target = encodeWholeReporting(newer) else { return }
    let expected = target.changedKeys(comparedTo: local)
    if !expected.isEmpty {
      isReloading = true
      reload(model, newer)
      isReloading = false
      reloadCount += 1
      _ = recorder.take()  // the reload's own changes: encoded just below
      guard let after = encodeReporting(keys: expected) else { return }
      let missed = Set(expected.filter { after.fields[$0] != target.fields[$0] }).subtracting(reportedIncomplete)
      if !missed.isEmpty {
        reportedIncomplete.formUnion(missed)
        onError(.reloadIncomplete(properties: missed.sorted()))
      }
      for key in expected { local.fields[key] = after.fields[key] }
    }
    if version < supported {
      // Another writer stored an older version: write the migrated form back.
      var patch = Patch()
      for key in local.changedKeys(comparedTo: remote) {
        patch[key] = local.fields[key].map { .set($0, base: remote.fields[key]) } ?? .remove(base: remote.fields[key])
      }
      submit(patch, writeNow: true)
    }
  }

  /// The live model's encoding of `keys` (every key, if it is encoded whole); reports
  /// a failure (`nil`).
  private func encodeReporting(keys: Set<String>) -> StoredDocument? {
    do {
      if let fields = try FieldEncoder().encode(model, keys: .keys(keys)) {
        recorder.rewatch(properties: keys)
        return StoredDocument(fields: fields.values)
      }
    } catch {
      onError(.encodingFailed(underlying: error))
      return nil
    }
    let whole = encodeWholeReporting(model)
    recorder.rewatch(properties: nil)
    return whole
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
