/// What went wrong while restoring or saving a persisted model.
///
/// Restore errors (``corrupt(underlying:movedTo:)``, ``schemaMismatch(underlying:movedTo:)``,
/// ``readFailed(underlying:)``, ``quarantineFailed(underlying:reading:)``) leave the model
/// at its defaults. Save errors (``writeFailed(underlying:)``,
/// ``encodingFailed(underlying:)``) leave the previously saved value in place; the
/// change is retried with the next change or ``Persisted/flush()``.
public enum PersistenceError: Error, CustomStringConvertible {
  /// The stored bytes are not a readable encoding at all (for example garbage or a
  /// truncated file). The bytes were moved aside to `movedTo`.
  case corrupt(underlying: any Error, movedTo: QuarantineLocation)

  /// The stored bytes are well-formed but don't decode as the model (a missing key, a
  /// wrong type: usually a value saved by another version of the app). The bytes were
  /// moved aside to `movedTo`.
  case schemaMismatch(underlying: DecodingError, movedTo: QuarantineLocation)

  /// The storage could not be read. Nothing was moved, and to keep whatever is stored
  /// there, the model is not saved for the rest of this run.
  case readFailed(underlying: any Error)

  /// A stored value could not be read (`reading`) and moving it aside failed too
  /// (`underlying`). To keep it, the model is not saved for the rest of this run.
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
      "the stored value could not be read (\(error)); saving is off for this run"
    case .quarantineFailed(let error, let reading):
      "the stored value could not be read (\(reading)) nor moved aside (\(error)); saving is off for this run"
    case .encodingFailed(let error):
      "the model could not be encoded (\(error)); nothing was written"
    case .writeFailed(let error):
      "the model could not be saved (\(error)); the previous value is intact, the save will be retried"
    }
  }
}
