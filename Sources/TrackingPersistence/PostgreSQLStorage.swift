// Built with the package trait `PostgreSQL` (which brings postgres-nio); without it, this file is empty.
#if PostgreSQL
  import Foundation
  import PostgresNIO

  /// Stores a persisted model's value in one row of a PostgreSQL table, shared by every
  /// app instance that uses the same database and key: a change stored by one instance
  /// reaches the observers of the model on every other (`LISTEN`/`NOTIFY`).
  ///
  /// ```swift
  /// let storage = try PostgreSQLStorage(url: "postgres://app@db.internal:5432/app", key: "scene")
  /// let persisted = Persisted(storage: storage) { Scene() }   // Scene: ReloadableModel
  /// ```
  ///
  /// **Tables.** `<table>` (`tracking_persistence` unless told otherwise) holds one row
  /// per key: `key text PRIMARY KEY, value text` (the model's JSON, `NULL` when nothing
  /// is stored), `version bigint` (counts the row's commits), `saved_at timestamptz`.
  /// `<table>_quarantine` keeps moved-aside values with the reason. Both are created
  /// if missing. A key is any text without a NUL character (PostgreSQL's `text` can't
  /// hold one): spaces, quotes and any Unicode are fine.
  ///
  /// **Writes.** ``update(_:)`` is one transaction that locks the row (`SELECT … FOR
  /// UPDATE`), so updates of one key are serialized in commit order, and ``Persisted``'s
  /// property-by-property merge inside it makes the last committed change of each
  /// property win. The transaction ends with `pg_notify('<table>', '<version> <instance>
  /// <key>')`, delivered to listeners when it commits: the key comes last, so it may
  /// contain spaces (a key longer than 1 000 bytes is left out, and every listener
  /// reads the row again).
  ///
  /// **Waiting.** A call takes at most ``timeout`` seconds — waiting for the storage's
  /// connection, connecting, every round trip, and a row lock held by another session
  /// included — then throws ``StorageTimeout``. Other failures are
  /// ``PostgreSQLFailure``s, which say what failed (refused, login, lost, SQLSTATE).
  ///
  /// **Changes and reconnection.** ``observeChanges(_:)`` listens on the channel `<table>`
  /// and reports other instances' notifications for this key. When the connection drops,
  /// it is re-established in the background (backing off up to a second between tries),
  /// listening resumes, and a change is reported at once: notifications sent while
  /// disconnected are lost, so the model reads the stored value again, and writes that
  /// failed meanwhile are retried. Nothing acknowledged is lost.
  ///
  /// **Threads.** The methods block the calling thread for the round trips (``Persisted``
  /// calls them on its background queue). One connection serves a storage; its
  /// transactions are serialized.
  public final class PostgreSQLStorage: SharedPersistenceStorage {
    /// How the storage connects.
    public let configuration: PostgresConnection.Configuration
    /// The row's key.
    public let key: String
    /// The table holding the values; also the notification channel.
    public let table: String
    /// The longest a call takes, in seconds, before it throws ``StorageTimeout``.
    public let timeout: TimeInterval
    /// The table holding moved-aside values: `<table>_quarantine`.
    public var quarantineTable: String { "\(table)_quarantine" }

    private let instance = UUID().uuidString
    private let logger: Logger
    private let connection: PostgreSQLConnection

    /// A storage reached with `configuration`, under `key`. Connects on first use.
    /// - Parameters:
    ///   - configuration: How to connect.
    ///   - key: The row's key: one per persisted model.
    ///   - table: The table holding the values (created if missing); also the channel.
    ///   - timeout: The longest a call takes, in seconds.
    /// - Throws: ``InvalidKey`` if `key` contains a NUL character.
    public init(
      configuration: PostgresConnection.Configuration, key: String, table: String = "tracking_persistence",
      timeout: TimeInterval = 5
    ) throws {
      guard !key.utf8.contains(0) else { throw InvalidKey(key: key) }
      precondition(timeout > 0 && timeout.isFinite, "a timeout is a positive number of seconds, not \(timeout)")
      self.configuration = configuration
      self.key = key
      self.table = table
      self.timeout = timeout
      var errorsOnly = Logger(label: "TrackingPersistence.PostgreSQLStorage")
      errorsOnly.logLevel = .error
      let logger = errorsOnly
      self.logger = logger
      let quarantineTable = "\(table)_quarantine"
      connection = PostgreSQLConnection(
        configuration: configuration, logger: logger, channel: table, timeout: timeout
      ) { try Self.createTables(table: table, quarantineTable: quarantineTable, on: $0) }
    }

    /// A storage at a `postgres://user:password@host:port/database` URL (TLS off: for
    /// loopback and private networks; pass a configuration for TLS), under `key`.
    /// - Parameters:
    ///   - url: Where the server is, and who connects.
    ///   - key: The row's key: one per persisted model.
    ///   - table: The table holding the values (created if missing); also the channel.
    ///   - applicationName: Shown in `pg_stat_activity`, to tell connections apart.
    ///   - timeout: The longest a call takes, in seconds.
    /// - Throws: ``InvalidURL`` if `url` is not a PostgreSQL URL; ``InvalidKey``.
    public convenience init(
      url: String, key: String, table: String = "tracking_persistence", applicationName: String? = nil,
      timeout: TimeInterval = 5
    ) throws {
      guard let components = URLComponents(string: url),
        ["postgres", "postgresql"].contains(components.scheme), let host = components.host,
        let user = components.user
      else { throw InvalidURL(url: url) }
      let database = String(components.path.drop { $0 == "/" })
      var configuration = PostgresConnection.Configuration(
        host: host, port: components.port ?? 5432, username: user, password: components.password,
        database: database.isEmpty ? nil : database, tls: .disable)
      if let applicationName {
        configuration.options.additionalStartupParameters.append(("application_name", applicationName))
      }
      try self.init(configuration: configuration, key: key, table: table, timeout: timeout)
    }

    /// A URL that ``init(url:key:table:applicationName:timeout:)`` can't use.
    public struct InvalidURL: Error, CustomStringConvertible {
      /// The URL as given.
      public let url: String
      /// What is expected.
      public var description: String { "not a postgres://user[:password]@host[:port]/database URL: \(url)" }
    }

    /// A key PostgreSQL can't store: it contains a NUL character.
    public struct InvalidKey: Error, CustomStringConvertible {
      /// The key as given.
      public let key: String
      /// What is wrong.
      public var description: String {
        "a PostgreSQL storage key can't contain a NUL character: \(key.debugDescription)"
      }
    }

    /// Closes the connection and stops the change reports for good.
    public func close() {
      connection.shutDown()
    }

    deinit { connection.shutDown() }

    // MARK: PersistenceStorage

    /// The row's value, or `nil` if there is none.
    public func load() throws -> Data? {
      try connection.withConnection { connection in
        try select(on: connection).value
      }
    }

    /// Replaces the row's value, in one transaction.
    public func save(_ data: Data) throws {
      _ = try update { _ in .replace(data) }
    }

    /// Copies the row into the quarantine table and clears it, in one transaction.
    public func quarantine(reason: String) throws -> QuarantineLocation? {
      try update { stored in stored == nil ? .keep : .moveAside(reason: reason, replacement: nil) }.movedTo
    }

    /// The value of a quarantined row of this storage.
    public func quarantinedData(at location: QuarantineLocation) throws -> Data? {
      guard case .databaseRow(let rowTable, let id) = location, rowTable == quarantineTable else { return nil }
      return try connection.withConnection { connection in
        let rows = try connection.query("SELECT value FROM \(unescaped: quoted(quarantineTable)) WHERE id = \(id)")
        return try rows.first?.decode(String?.self).map { Data($0.utf8) }
      }
    }

    // MARK: SharedPersistenceStorage

    /// Reads, decides and writes in one transaction holding the row's lock, then
    /// notifies the other instances.
    public func update(_ decide: (Data?) throws -> StoredValueChange) throws -> StoredValueUpdate {
      try connection.withConnection { connection in
        try run("BEGIN", on: connection)
        do {
          let result = try update(decide, on: connection)
          try run("COMMIT", on: connection)
          return result
        } catch {
          try? run("ROLLBACK", on: connection)  // a failure here means the connection is gone: so is the transaction
          throw error
        }
      }
    }

    /// Listens for other instances' changes of this key (and reports a change after
    /// every reconnection).
    public func observeChanges(_ onChange: @escaping @Sendable () -> Void) throws -> StorageObservation {
      let notification = ChangeNotification(key: key, instance: instance)
      let id = connection.addObserver { payload in
        // `nil`: listening (re)started, so whatever happened meanwhile is read again.
        guard let payload else { return onChange() }
        if notification.concernsOthers(payload) { return }
        onChange()
      }
      return StorageObservation { [connection] in connection.removeObserver(id) }
    }

    // MARK: Queries

    private func update(_ decide: (Data?) throws -> StoredValueChange, on connection: BoundedConnection) throws
      -> StoredValueUpdate
    {
      try connection.query(
        """
        INSERT INTO \(unescaped: quoted(table)) (key, value, version) VALUES (\(key), NULL, 0)
        ON CONFLICT (key) DO NOTHING
        """)
      let stored = try select(on: connection, forUpdate: true).value
      switch try decide(stored) {
      case .keep:
        return StoredValueUpdate(stored: stored)
      case .replace(let data):
        try write(data, on: connection)
        return StoredValueUpdate(stored: data)
      case .moveAside(let reason, let replacement):
        let rows = try connection.query(
          """
          INSERT INTO \(unescaped: quoted(quarantineTable)) (key, value, version, reason)
          SELECT key, value, version, \(reason) FROM \(unescaped: quoted(table)) WHERE key = \(key) AND value IS NOT NULL
          RETURNING id
          """)
        let location = try rows.first.map {
          QuarantineLocation.databaseRow(table: quarantineTable, id: try $0.decode(Int64.self))
        }
        try write(replacement, on: connection)
        return StoredValueUpdate(stored: replacement, movedTo: location)
      }
    }

    private func select(on connection: BoundedConnection, forUpdate: Bool = false) throws -> (
      value: Data?, version: Int64
    ) {
      let rows = try connection.query(
        """
        SELECT value, version FROM \(unescaped: quoted(table)) WHERE key = \(key)\
        \(unescaped: forUpdate ? " FOR UPDATE" : "")
        """)
      guard let row = rows.first else { return (nil, 0) }
      let (value, version) = try row.decode((String?, Int64).self)
      return (value.map { Data($0.utf8) }, version)
    }

    private func write(_ data: Data?, on connection: BoundedConnection) throws {
      let text = data.map { String(decoding: $0, as: UTF8.self) }
      let rows = try connection.query(
        """
        UPDATE \(unescaped: quoted(table)) SET value = \(text), version = version + 1, saved_at = now()
        WHERE key = \(key) RETURNING version
        """)
      let version = try rows.first?.decode(Int64.self) ?? 0
      let payload = ChangeNotification(key: key, instance: instance).payload(version: version)
      try connection.query("SELECT pg_notify(\(table), \(payload))")
    }

    private func run(_ sql: String, on connection: BoundedConnection) throws {
      try connection.query(PostgresQuery(unsafeSQL: sql))
    }

    private static func createTables(table: String, quarantineTable: String, on connection: BoundedConnection) throws {
      // Serialized by an advisory lock, so instances starting together don't race on `CREATE`.
      let statements = [
        "BEGIN",
        "SELECT pg_advisory_xact_lock(hashtext('TrackingPersistence.createTables'))",
        """
        CREATE TABLE IF NOT EXISTS \(quoted(table)) (
          key text PRIMARY KEY, value text, version bigint NOT NULL DEFAULT 0, saved_at timestamptz)
        """,
        """
        CREATE TABLE IF NOT EXISTS \(quoted(quarantineTable)) (
          id bigserial PRIMARY KEY, key text NOT NULL, value text, version bigint,
          quarantined_at timestamptz NOT NULL DEFAULT now(), reason text NOT NULL)
        """,
        "COMMIT",
      ]
      do {
        for sql in statements { try connection.query(PostgresQuery(unsafeSQL: sql)) }
      } catch {
        _ = try? connection.query("ROLLBACK")
        throw error
      }
    }
  }

  /// The payload of the notification a write sends: `<version> <instance> <key>`. The
  /// key comes last, so splitting at the first two spaces reads any key back; a key
  /// longer than ``longestKey`` bytes is left out (PostgreSQL limits a payload to 8 000
  /// bytes), and listeners of every key read the row again.
  struct ChangeNotification: Sendable {
    static let longestKey = 1_000

    let key: String
    let instance: String

    func payload(version: Int64) -> String {
      key.utf8.count > Self.longestKey ? "\(version) \(instance)" : "\(version) \(instance) \(key)"
    }

    /// Whether `payload` is provably about another key, or this instance's own write.
    /// Anything else — this key, a key too long to name, a payload of an unknown form
    /// (another version of this library) — is a change to read: a spurious one costs one
    /// read, a missed one would cost the change.
    func concernsOthers(_ payload: String) -> Bool {
      let parts = payload.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
      guard parts.count >= 2, Int64(parts[0]) != nil, UUID(uuidString: String(parts[1])) != nil else { return false }
      if parts[1] == instance { return true }
      return parts.count == 3 && parts[2] != key
    }
  }

  /// `name` as a quoted SQL identifier.
  private func quoted(_ name: String) -> String {
    "\"\(name.replacingOccurrences(of: "\"", with: "\"\""))\""
  }
#endif
