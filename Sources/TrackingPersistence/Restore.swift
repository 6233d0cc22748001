import Foundation

/// Reads a model from a storage at launch (or later, when the storage was unavailable
/// at launch), classifying what can go wrong.
enum Restore<Model: Decodable> {
  /// What restoring produced.
  struct Outcome {
    /// The model (`nil`: nothing stored, or nothing usable).
    var model: Model?
    /// An error to report.
    var error: PersistenceError?
    /// What happens next.
    var state: State
  }

  /// Where restoring leaves saving.
  enum State {
    /// Saving may go ahead. `stored`: the document the model was read from (`nil`:
    /// nothing usable was stored); `migrated`: it was of an older version, so it must
    /// be written back.
    case restored(stored: StoredDocument?, migrated: Bool)
    /// The storage could not be read: nothing may be written until it can (what is
    /// stored must not be overwritten unseen). Retried in the background if
    /// `transient`, else when asked.
    case unavailable(PersistenceError, transient: Bool)
    /// The stored value must be kept as it is: saving is off for this run.
    case disabled(PersistenceError)
  }

  /// A stored value that can't be read as the model, and why.
  private enum Unreadable: Error {
    case corrupt(any Error)
    case mismatch(DecodingError)
    case migration(any Error, version: Int)
  }

  /// Restores from `storage`, reading it with `load` (a read bounded by the storage's
  /// timeout).
  static func run(
    load: () throws -> Data?, from storage: any PersistenceStorage, schema: PersistenceSchema<Model>?
  ) -> Outcome {
    // Another writer may replace an unreadable value while we look at it: start again then.
    for _ in 0..<3 {
      let data: Data?
      do {
        data = try load()
      } catch {
        let failure = PersistenceError.readFailed(underlying: error)
        return Outcome(model: nil, error: failure, state: .unavailable(failure, transient: isTransientFailure(error)))
      }
      guard let data else { return Outcome(model: nil, error: nil, state: .restored(stored: nil, migrated: false)) }
      let unreadable: Unreadable
      do {
        return try read(data, schema: schema)
      } catch {
        unreadable = error
      }
      let reason: String
      switch unreadable {
      case .corrupt(let error): reason = "corrupt: \(error)"
      case .mismatch(let error): reason = "schema mismatch: \(error)"
      case .migration(let error, let version): reason = "migration from version \(version) failed: \(error)"
      }
      let location: QuarantineLocation?
      do {
        location = try moveAside(data, of: storage, reason: reason)
      } catch let quarantineError {
        let reading: any Error =
          switch unreadable {
          case .corrupt(let error), .migration(let error, _): error
          case .mismatch(let error): error
          }
        let failure = PersistenceError.quarantineFailed(underlying: quarantineError, reading: reading)
        return Outcome(
          model: nil, error: failure, state: .unavailable(failure, transient: isTransientFailure(quarantineError)))
      }
      guard let location else { continue }  // the value changed meanwhile: read again
      let error: PersistenceError =
        switch unreadable {
        case .corrupt(let error): .corrupt(underlying: error, movedTo: location)
        case .mismatch(let error): .schemaMismatch(underlying: error, movedTo: location)
        case .migration(let error, let version): .migrationFailed(underlying: error, fromVersion: version, movedTo: location)
        }
      return Outcome(model: nil, error: error, state: .restored(stored: nil, migrated: false))
    }
    // The value kept changing under us (other writers repairing it): start from the defaults.
    return Outcome(model: nil, error: nil, state: .restored(stored: nil, migrated: false))
  }

  /// Decodes `data` as the model, migrating it if it is of an older version.
  private static func read(_ data: Data, schema: PersistenceSchema<Model>?) throws(Unreadable) -> Outcome {
    let document: StoredDocument
    do {
      document = try StoredDocument(parsing: data)
    } catch {
      throw .corrupt(error)
    }
    let version: Int
    do {
      version = try storedSchemaVersion(of: document)
    } catch let error as DecodingError {
      throw .mismatch(error)
    } catch {
      throw .corrupt(error)
    }
    let supported = schema?.version ?? 0
    if version > supported {
      let failure = PersistenceError.newerSchemaVersion(stored: version, supported: supported)
      return Outcome(model: nil, error: failure, state: .disabled(failure))
    }
    // Decoded from the document, not the raw bytes: one value per key, the last of
    // any repeated one (see StoredDocument), and no byte order mark.
    let canonical = document.serialized()
    if version < supported, let schema {
      do {
        let model = try schema.migrate(StoredModelValue(version: version, data: canonical))
        return Outcome(model: model, error: nil, state: .restored(stored: document, migrated: true))
      } catch {
        throw .migration(error, version: version)
      }
    }
    do {
      let model = try JSONDecoder().decode(Model.self, from: canonical)
      return Outcome(model: model, error: nil, state: .restored(stored: document, migrated: false))
    } catch let error as DecodingError {
      // Well-formed JSON (it parsed above) that doesn't fit the model — a missing key,
      // a wrong type, a number no `Double` holds (`1e400`) — is a schema mismatch.
      throw .mismatch(error)
    } catch {
      throw .corrupt(error)
    }
  }

  /// Moves `data` aside: through an update that checks it is still what is stored, when
  /// the storage is shared; `nil` if it was replaced meanwhile (or nothing is stored).
  private static func moveAside(_ data: Data, of storage: any PersistenceStorage, reason: String) throws
    -> QuarantineLocation?
  {
    guard let shared = storage as? any SharedPersistenceStorage else {
      return try storage.quarantine(reason: reason)
    }
    return try shared.update { stored in
      stored == data ? .moveAside(reason: reason, replacement: nil) : .keep
    }.movedTo
  }
}
