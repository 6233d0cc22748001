import Tracking

/// What went wrong while restoring, saving or reloading a persisted model.
///
/// Restore errors (``corrupt(underlying:movedTo:)``, ``schemaMismatch(underlying:movedTo:)``,
/// ``readFailed(underlying:)``, ``quarantineFailed(underlying:reading:)``,
/// ``newerSchemaVersion(stored:supported:)``,
/// ``migrationFailed(underlying:fromVersion:movedTo:)``) leave the model at its
/// defaults. Save errors (``writeFailed(underlying:)``, ``encodingFailed(underlying:)``)
/// leave the previously saved value in place; the change is retried (see
/// ``PersistenceStatus``). Where saving can't go on, ``Persisted/status`` says so and
/// ``Persisted/flush()`` throws: saving is never off silently.
///
/// When another writer stores a value the model can't read (a shared storage), the
/// same ``corrupt(underlying:movedTo:)`` and ``schemaMismatch(underlying:movedTo:)``
/// errors are reported, but the model keeps its state: the unreadable value is moved
/// aside and the last good state takes its place.
public enum PersistenceError: Error, CustomStringConvertible {
  /// The stored bytes are not a readable encoding at all (for example garbage or a
  /// truncated file). The bytes were moved aside to `movedTo`.
  case corrupt(underlying: any Error, movedTo: QuarantineLocation)

  /// The stored bytes are well-formed but don't decode as the model (a missing key, a
  /// wrong type: usually a value saved by another version of the app). The bytes were
  /// moved aside to `movedTo`.
  case schemaMismatch(underlying: DecodingError, movedTo: QuarantineLocation)

  /// The storage could not be read. At restore, nothing was moved, and to keep whatever
  /// is stored there, nothing is saved until it can be read: a transient failure (a
  /// timeout, a server down) is retried in the background with backoff
  /// (``PersistenceStatus/restoring(lastError:)``), any failure by ``Persisted/flush()``
  /// (``PersistenceStatus/failed(_:)`` meanwhile); once read, the stored state is merged
  /// into the model and the changes made meanwhile are written. Later (reading another
  /// writer's change), the model keeps its state and the next report retries.
  case readFailed(underlying: any Error)

  /// The stored value was saved by a newer version of the model (`stored`) than this
  /// build reads (`supported`; see ``PersistenceSchema``). It was not read, and to keep
  /// it, the model is not saved for the rest of this run
  /// (``PersistenceStatus/disabled(_:)``).
  case newerSchemaVersion(stored: Int, supported: Int)

  /// The stored value of an older version (`fromVersion`) could not be migrated: the
  /// schema's migration threw `underlying`. The value was moved aside to `movedTo`.
  case migrationFailed(underlying: any Error, fromVersion: Int, movedTo: QuarantineLocation)

  /// The storage could not start reporting other writers' changes, so the model won't
  /// see them until it is restored again (or ``Persisted/synchronize()`` is called).
  /// Saving goes on.
  case observationFailed(underlying: any Error)

  /// After a reload, these properties still differ from the stored state: the model's
  /// ``ReloadableModel/reload(from:)`` does not assign them. They keep their values.
  case reloadIncomplete(properties: [String])

  /// A stored value could not be read (`reading`) and moving it aside failed too
  /// (`underlying`). To keep it, nothing is saved until moving it succeeds (retried as
  /// ``readFailed(underlying:)`` is).
  case quarantineFailed(underlying: any Error, reading: any Error)

  /// The model could not be encoded (for example a non-finite floating-point value).
  /// Nothing was written.
  case encodingFailed(underlying: any Error)

  /// The storage refused the new value (read-only location, full disk, …). The
  /// previously saved value is intact; the save is retried on the next change or flush.
  case writeFailed(underlying: any Error)

  /// A sentence describing the error, for logs.
  public var description: String {
    switch self {
    case .corrupt(let error, let location):
      "the stored value is corrupt (\(error)); it was moved to \(location)"
    case .schemaMismatch(let error, let location):
      "the stored value doesn't match the model (\(error)); it was moved to \(location)"
    case .readFailed(let error):
      "the stored value could not be read (\(error)); nothing is saved until it can be"
    case .newerSchemaVersion(let stored, let supported):
      "the stored value has schema version \(stored), newer than \(supported); it is kept and saving is off for this run"
    case .migrationFailed(let error, let version, let location):
      "the stored value of schema version \(version) could not be migrated (\(error)); it was moved to \(location)"
    case .observationFailed(let error):
      "other writers' changes can't be observed (\(error)); they are seen at the next restore or synchronize()"
    case .reloadIncomplete(let properties):
      "reload(from:) does not assign \(properties.joined(separator: ", ")); they keep their values"
    case .quarantineFailed(let error, let reading):
      "the stored value could not be read (\(reading)) nor moved aside (\(error)); nothing is saved until it can be"
    case .encodingFailed(let error):
      "the model could not be encoded (\(error)); nothing was written"
    case .writeFailed(let error):
      "the model could not be saved (\(error)); the previous value is intact, the save will be retried"
    }
  }
}

extension PersistenceError {
  /// The default `onError` of ``Persisted``: in debug builds, writes the error to
  /// standard error as a warning (`warning: TrackingPersistence: …`), where the
  /// debugger's console shows it; in release builds, nothing. Pass your own handler to
  /// log errors or show them; ``Persisted/status`` tells the same story as a value.
  @Sendable public static func warnInDebugBuilds(_ error: PersistenceError) {
    #if DEBUG
      writeToStandardError("warning: TrackingPersistence: \(error)\n")
    #endif
  }
}
