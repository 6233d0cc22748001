// Built with the package trait `SQLite` (which brings GRDB); without it, this file is empty.
#if SQLite
import Dispatch
import Foundation
import GRDB
import Tracking

/// Stores a persisted model's value as one row of an SQLite key/blob table, through GRDB.
///
/// The table (`tracking_persistence` unless told otherwise) has the columns
/// `key TEXT PRIMARY KEY`, `value BLOB`, `savedAt REAL` (seconds since 1970); several
/// models can share a database under different keys. Each save is one transaction,
/// so a crash leaves either the new row or the previous one.
///
/// A value that can't be read is copied into `<table>_quarantine` (with the key, the
/// time and the reason) and deleted from the table, in one transaction.
///
/// **Waiting.** A call waits at most ``timeout`` seconds for another connection's lock
/// (SQLite's busy timeout), then throws ``StorageTimeout``.
///
/// **Shared by processes.** Several processes (or connections) may use one database:
/// each ``update(_:)`` is one `IMMEDIATE` transaction, so updates never interleave.
/// Other connections' commits are noticed by reading `PRAGMA data_version` every
/// ``changePollingInterval`` (SQLite has no cross-process notification; the pragma is
/// a cheap read of a counter that only other connections' commits move). So two
/// ``Persisted`` values that should see each other's changes need storages with
/// connections of their own, as two processes have.
public struct SQLiteStorage: SharedPersistenceStorage {
  /// The database the value lives in.
  public let database: any DatabaseWriter
  /// The row's key.
  public let key: String
  /// The table holding the values.
  public let table: String
  /// How often, in seconds, other connections' commits are looked for.
  public let changePollingInterval: TimeInterval
  /// The longest a call waits for another connection's lock, in seconds, before it
  /// throws ``StorageTimeout``.
  public let timeout: TimeInterval

  /// The table holding moved-aside values: `<table>_quarantine`.
  public var quarantineTable: String { "\(table)_quarantine" }

  /// A storage in the SQLite database file at `path` (created if missing), under `key`.
  ///
  /// The database uses write-ahead logging, so reading it (from another process, say)
  /// never waits for a save, and the connection waits up to `timeout` seconds for
  /// another writer's lock.
  public init(
    path: String, key: String, table: String = "tracking_persistence", changePollingInterval: TimeInterval = 0.1,
    timeout: TimeInterval = 5
  ) throws {
    precondition(timeout >= 0 && timeout.isFinite, "a busy timeout is a finite number of seconds, not \(timeout)")
    var configuration = Configuration()
    configuration.busyMode = .timeout(timeout)
    configuration.prepareDatabase { db in
      if try String.fetchOne(db, sql: "PRAGMA journal_mode") != "wal" {
        try db.execute(sql: "PRAGMA journal_mode = WAL")
      }
    }
    try self.init(
      database: DatabaseQueue(path: path, configuration: configuration), key: key, table: table,
      changePollingInterval: changePollingInterval, timeout: timeout)
  }

  /// A storage in an existing GRDB database (a queue or a pool), under `key`.
  /// Creates the tables if they are missing.
  ///
  /// `timeout` is what ``Persisted`` is told to expect: give `database` a busy timeout
  /// of at most that (`Configuration.busyMode = .timeout(…)`); its default,
  /// `.immediateError`, fails at once when another connection holds the lock.
  public init(
    database: any DatabaseWriter, key: String, table: String = "tracking_persistence",
    changePollingInterval: TimeInterval = 0.1, timeout: TimeInterval = 5
  ) throws {
    precondition(changePollingInterval > 0 && changePollingInterval.isFinite, "a polling interval is positive")
    self.database = database
    self.key = key
    self.table = table
    self.changePollingInterval = changePollingInterval
    self.timeout = timeout
    let quarantineTable = "\(table)_quarantine"
    try bounded {
      try database.write { db in
        try db.create(table: table, options: .ifNotExists) { t in
          t.primaryKey("key", .text)
          t.column("value", .blob).notNull()
          t.column("savedAt", .double).notNull()
        }
        try db.create(table: quarantineTable, options: .ifNotExists) { t in
          t.autoIncrementedPrimaryKey("id")
          t.column("key", .text).notNull()
          t.column("value", .blob)
          t.column("savedAt", .double)
          t.column("quarantinedAt", .double).notNull()
          t.column("reason", .text).notNull()
        }
      }
    }
  }

  /// The row's value, or `nil` if there is no row for the key.
  public func load() throws -> Data? {
    try bounded { try database.read { db in try load(db) } }
  }

  /// Inserts or replaces the row, in one transaction.
  public func save(_ data: Data) throws {
    try bounded { try database.write { db in try save(data, db) } }
  }

  /// Copies the row into the quarantine table and deletes it, in one transaction.
  /// Returns `nil` if there is no row for the key.
  public func quarantine(reason: String) throws -> QuarantineLocation? {
    try bounded { try database.write { db in try quarantine(reason: reason, db) } }
  }

  /// Reads, decides and writes in one `IMMEDIATE` transaction (it takes the database's
  /// write lock first, so no other connection commits in between).
  public func update(_ decide: (Data?) throws -> StoredValueChange) throws -> StoredValueUpdate {
    try bounded {
      try database.writeWithoutTransaction { db -> StoredValueUpdate in
        var outcome = StoredValueUpdate(stored: nil)
        try db.inTransaction(.immediate) {
          let stored = try load(db)
          switch try decide(stored) {
          case .keep:
            outcome = StoredValueUpdate(stored: stored)
          case .replace(let data):
            try save(data, db)
            outcome = StoredValueUpdate(stored: data)
          case .moveAside(let reason, let replacement):
            let location = try quarantine(reason: reason, db)
            if let replacement { try save(replacement, db) }
            outcome = StoredValueUpdate(stored: replacement, movedTo: location)
          }
          return .commit
        }
        return outcome
      }
    }
  }

  /// Reports other connections' commits (to any table of the database), found by
  /// reading `PRAGMA data_version` every ``changePollingInterval``.
  public func observeChanges(_ onChange: @escaping @Sendable () -> Void) throws -> StorageObservation {
    let database = database
    let readVersion = { try database.writeWithoutTransaction { try Int.fetchOne($0, sql: "PRAGMA data_version") } }
    let queue = DispatchQueue(label: "TrackingPersistence.sqlite-monitor")
    let timer = DispatchSource.makeTimerSource(queue: queue)
    // Only touched on `queue`, by the timer's handler.
    nonisolated(unsafe) var last = try readVersion()
    timer.setEventHandler {
      guard let version = try? readVersion(), version != last else { return }
      last = version
      onChange()
    }
    let interval = DispatchTimeInterval.nanoseconds(Int(changePollingInterval * 1e9))
    timer.schedule(deadline: .now() + interval, repeating: interval)
    timer.resume()
    let cancellable = UncheckedSendable(timer)  // cancelling a dispatch source is thread-safe
    return StorageObservation { cancellable.value.cancel() }
  }

  /// Runs `body`, turning SQLite's "busy" and "locked" (another connection held the
  /// lock past the busy timeout) into ``StorageTimeout``.
  private func bounded<Result>(_ body: () throws -> Result) throws -> Result {
    do {
      return try body()
    } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED {
      throw StorageTimeout(
        waitingFor: "the lock of the SQLite database \(database.path) (another connection holds it)", seconds: timeout)
    }
  }

  private func load(_ db: Database) throws -> Data? {
    try Data.fetchOne(db, sql: "SELECT value FROM \(table.quotedDatabaseIdentifier) WHERE key = ?", arguments: [key])
  }

  private func save(_ data: Data, _ db: Database) throws {
    try db.execute(
      sql: """
        INSERT INTO \(table.quotedDatabaseIdentifier) (key, value, savedAt) VALUES (?, ?, ?)
        ON CONFLICT(key) DO UPDATE SET value = excluded.value, savedAt = excluded.savedAt
        """,
      arguments: [key, data, Date().timeIntervalSince1970])
  }

  private func quarantine(reason: String, _ db: Database) throws -> QuarantineLocation? {
    let exists = try Bool.fetchOne(
      db, sql: "SELECT 1 FROM \(table.quotedDatabaseIdentifier) WHERE key = ?", arguments: [key]) ?? false
    guard exists else { return nil }
    try db.execute(
      sql: """
        INSERT INTO \(quarantineTable.quotedDatabaseIdentifier) (key, value, savedAt, quarantinedAt, reason)
        SELECT key, value, savedAt, ?, ? FROM \(table.quotedDatabaseIdentifier) WHERE key = ?
        """,
      arguments: [Date().timeIntervalSince1970, reason, key])
    let id = db.lastInsertedRowID
    try db.execute(sql: "DELETE FROM \(table.quotedDatabaseIdentifier) WHERE key = ?", arguments: [key])
    return .databaseRow(table: quarantineTable, id: id)
  }

  /// The value of a quarantined row of this storage.
  public func quarantinedData(at location: QuarantineLocation) throws -> Data? {
    guard case .databaseRow(let rowTable, let id) = location, rowTable == quarantineTable else { return nil }
    return try database.read { db in
      try Data.fetchOne(
        db, sql: "SELECT value FROM \(rowTable.quotedDatabaseIdentifier) WHERE id = ?", arguments: [id])
    }
  }
}
#endif
