import Foundation

/// Where a persisted model's encoded value lives: one value, read at launch and
/// replaced on every save.
///
/// Two backends come with the module: ``JSONFileStorage`` (the default: one file,
/// replaced atomically) and ``SQLiteStorage`` (one row of a key/blob table, through GRDB).
/// Write your own to store elsewhere; the contract is:
///
/// - ``load()`` returns the bytes last passed to a successful ``save(_:)``, or `nil`
///   when nothing was ever saved.
/// - ``save(_:)`` replaces the stored value *atomically*: after a crash at any moment,
///   ``load()`` returns either the new bytes or the previous ones, never a mix.
///   When it throws, the previous value must still be there.
/// - ``quarantine(reason:)`` moves the stored value aside without overwriting anything,
///   so that a value the app can't read is kept for inspection rather than lost.
///
/// - Every call returns or throws within ``timeout`` seconds (throwing
///   ``StorageTimeout`` where it gave up waiting for a lock, a busy database or a
///   server), so that no caller waits without bound.
///
/// Calls come from one writer at a time (``Persisted`` serializes them), but possibly
/// from different threads.
public protocol PersistenceStorage: Sendable {
  /// The longest one call waits — for another writer's lock, a busy database, a
  /// server — before it throws ``StorageTimeout``, in seconds. ``Persisted`` never
  /// waits longer than this for a call on its actor: ``Persisted/flush()`` throws
  /// ``StorageTimeout`` instead (and the write goes on in the background).
  ///
  /// The default is 5 seconds; the storages of this module take it as a parameter.
  var timeout: TimeInterval { get }

  /// The stored bytes, or `nil` if nothing has been saved yet.
  func load() throws -> Data?

  /// Replaces the stored bytes atomically with `data`.
  func save(_ data: Data) throws

  /// Moves the stored value aside (it no longer loads) and says where it went.
  ///
  /// Returns `nil` if there was nothing to move. Never overwrites an earlier
  /// quarantined value.
  /// - Parameter reason: A short description kept with the value where the backend can.
  func quarantine(reason: String) throws -> QuarantineLocation?

  /// The bytes of a value that ``quarantine(reason:)`` moved to `location`, or `nil`
  /// if `location` does not belong to this storage or holds nothing.
  func quarantinedData(at location: QuarantineLocation) throws -> Data?
}

extension PersistenceStorage {
  /// Five seconds.
  public var timeout: TimeInterval { 5 }
}

/// Where ``PersistenceStorage/quarantine(reason:)`` moved a value that could not be read.
public enum QuarantineLocation: Sendable, Hashable, CustomStringConvertible {
  /// A file next to the original, named `<original name>.corrupt-<timestamp>`.
  case file(URL)
  /// A row of a database table, by its row id.
  case databaseRow(table: String, id: Int64)

  /// A readable form of the location, for logs.
  public var description: String {
    switch self {
    case .file(let url): url.path
    case .databaseRow(let table, let id): "\(table) row \(id)"
    }
  }
}
