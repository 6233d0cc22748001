import Foundation

/// Reads a model from a storage at launch, classifying what can go wrong.
enum Restore<Model: Decodable> {
  /// What restoring produced.
  struct Outcome {
    /// The model (`nil`: nothing stored, or nothing usable).
    var model: Model?
    /// An error to report.
    var error: PersistenceError?
    /// Whether saving may go ahead.
    var mayWrite: Bool
    /// The stored document the model was read from, if it was read as it is.
    var stored: StoredDocument?
    /// Whether the model was migrated from an older version (so it must be written back).
    var migrated = false
  }

  /// A stored value that can't be read as the model, and why.
  private enum Unreadable: Error {
    case corrupt(any Error)
    case mismatch(DecodingError)
    case migration(any Error, version: Int)
  }

  static func run(from storage: any PersistenceStorage, schema: PersistenceSchema<Model>?) -> Outcome {
    // Another writer may replace an unreadable value while we look at it: start again then.
    for _ in 0..<3 {
      let data: Data?
      do {
        data = try storage.load()
      } catch {
        return Outcome(model: nil, error: .readFailed(underlying: error), mayWrite: false)
      }
      guard let data else { return Outcome(model: nil, error: nil, mayWrite: true) }
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
        return Outcome(model: nil, error: .quarantineFailed(underlying: quarantineError, reading: reading), mayWrite: false)
      }
      guard let location else { continue }  // the value changed meanwhile: read again
      let error: PersistenceError =
        switch unreadable {
        case .corrupt(let error): .corrupt(underlying: error, movedTo: location)
        case .mismatch(let error): .schemaMismatch(underlying: error, movedTo: location)
        case .migration(let error, let version): .migrationFailed(underlying: error, fromVersion: version, movedTo: location)
        }
      return Outcome(model: nil, error: error, mayWrite: true)
    }
    // The value kept changing under us (other writers repairing it): start from the defaults.
    return Outcome(model: nil, error: nil, mayWrite: true)
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
      return Outcome(
        model: nil, error: .newerSchemaVersion(stored: version, supported: supported), mayWrite: false)
    }
    if version < supported, let schema {
      do {
        let model = try schema.migrate(StoredModelValue(version: version, data: data))
        return Outcome(model: model, error: nil, mayWrite: true, stored: document, migrated: true)
      } catch {
        throw .migration(error, version: version)
      }
    }
    do {
      let model = try JSONDecoder().decode(Model.self, from: data)
      return Outcome(model: model, error: nil, mayWrite: true, stored: document)
    } catch {
      throw classify(error, data: data)
    }
  }

  /// Well-formed JSON that doesn't fit the model is a schema mismatch; anything else
  /// (garbage, a truncated file) is corrupt.
  private static func classify(_ error: any Error, data: Data) -> Unreadable {
    let wellFormed = (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil
    if wellFormed, let decodingError = error as? DecodingError { return .mismatch(decodingError) }
    return .corrupt(error)
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
