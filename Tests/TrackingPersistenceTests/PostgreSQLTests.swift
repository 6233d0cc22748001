#if PostgreSQL
  import Foundation
  import PostgresNIO
  import Testing
  import Tracking
  import TrackingPersistence

  /// The server the PostgreSQL tests use: `TRACKING_POSTGRES_URL`, set by `.ci/run`.
  enum PostgreSQLServer {
    static let url = ProcessInfo.processInfo.environment["TRACKING_POSTGRES_URL"]

    static let howToRun: Comment = """
      No PostgreSQL server: set TRACKING_POSTGRES_URL=postgres://user@127.0.0.1:5432/database to run \
      these tests (.ci/run installs Debian's server, starts one on loopback and sets it)
      """

    /// A key no other test uses.
    static func freshKey() -> String { "test-\(UUID().uuidString)" }

    /// A storage for `key`, its connection named `name` in `pg_stat_activity`, logging
    /// in as `user` (the URL's user by default), reached at `through` (the server's URL
    /// by default), in `table`.
    static func storage(
      key: String, name: String? = nil, user: String? = nil, through: String? = nil,
      table: String = "tracking_persistence", timeout: Double = 5
    ) throws -> PostgreSQLStorage {
      var components = URLComponents(string: through ?? url ?? "")
      if let user { components?.user = user }
      return try PostgreSQLStorage(
        url: components?.string ?? "", key: key, table: table, applicationName: name, timeout: timeout)
    }

    #if os(Linux)
      /// A proxy in front of the server (not listening yet).
      static func proxy() throws -> TCPProxy {
        let components = URLComponents(string: url ?? "")
        return try TCPProxy(toHost: "127.0.0.1", port: UInt16(components?.port ?? 5432))
      }
    #endif

    static let logger = {
      var logger = Logger(label: "TrackingPersistenceTests.admin")
      logger.logLevel = .critical
      return logger
    }()

    /// A connection of its own to the server (close it when done).
    static func session() async throws -> PostgresConnection {
      try await PostgresConnection.connect(
        configuration: try storage(key: "admin").configuration, id: 0, logger: logger)
    }

    /// Runs `sql` on a connection of its own; returns the first column of the first row.
    @discardableResult
    static func execute(_ sql: PostgresQuery) async throws -> String? {
      let connection = try await session()
      do {
        var first: String?
        for try await row in try await connection.query(sql, logger: logger) where first == nil {
          first = try? row.decode(String.self)
        }
        try await connection.close()
        return first
      } catch {
        try? await connection.close()
        throw error
      }
    }

    /// Closes, from the server's side, every connection named `name`; returns how many.
    @discardableResult
    static func dropConnections(named name: String) async throws -> Int {
      let count = try await execute(
        "SELECT count(pg_terminate_backend(pid))::text FROM pg_stat_activity WHERE application_name = \(name)")
      return Int(count ?? "") ?? 0
    }

    /// Keeps `user` from connecting, and closes its connections.
    static func lockOut(_ user: String) async throws {
      try await execute(PostgresQuery(unsafeSQL: "ALTER ROLE \"\(user)\" NOLOGIN"))
      try await execute("SELECT count(pg_terminate_backend(pid))::text FROM pg_stat_activity WHERE usename = \(user)")
    }

    /// Lets `user` connect again.
    static func letIn(_ user: String) async throws {
      try await execute(PostgresQuery(unsafeSQL: "ALTER ROLE \"\(user)\" LOGIN"))
    }
  }

  @MainActor
  @Suite("PostgreSQL", .serialized, .enabled(if: PostgreSQLServer.url != nil, PostgreSQLServer.howToRun))
  struct PostgreSQLTests {
    @Test func savesAndRestores() throws {
      let key = PostgreSQLServer.freshKey()
      do {
        let persisted = Persisted(storage: try PostgreSQLServer.storage(key: key)) { Scene() }
        #expect(persisted.restoreError == nil)
        persisted.model.query = "tea"
        persisted.model.path = ["shop"]
        try persisted.flush()
      }
      let restored = Persisted(storage: try PostgreSQLServer.storage(key: key)) { Scene() }
      #expect(SceneState(restored.model) == SceneState(query: "tea", path: ["shop"]))
    }

    @Test func aWriteOnOneInstanceReachesTheObserversOnTheOther() async throws {
      let key = PostgreSQLServer.freshKey()
      let first = Persisted(storage: try PostgreSQLServer.storage(key: key)) { Scene() }
      let second = Persisted(storage: try PostgreSQLServer.storage(key: key)) { Scene() }
      try first.flush()
      try second.flush()
      let queryChanges = ChangeCounter(second.model) { _ = $0.query }
      let pathChanges = ChangeCounter(second.model) { _ = $0.path }

      first.model.query = "from the first instance"
      try await eventually { second.model.query == "from the first instance" }
      #expect(queryChanges.changes == 1)
      #expect(pathChanges.changes == 0)
      #expect(first.reloadCount == 0)  // not echoed back

      // Both change different properties at once: both changes are kept, everywhere.
      first.model.path = ["first"]
      second.model.zoom = 3
      try await eventually { first.model.zoom == 3 && second.model.path == ["first"] }
    }

    @Test func theLastCommittedChangeOfAPropertyWins() async throws {
      let key = PostgreSQLServer.freshKey()
      let first = Persisted(storage: try PostgreSQLServer.storage(key: key)) { Scene() }
      let second = Persisted(storage: try PostgreSQLServer.storage(key: key)) { Scene() }
      first.model.query = "earlier"
      try first.flush()
      second.model.query = "later"
      try second.flush()
      try await eventually { first.model.query == "later" }
      #expect(try storedState(first.storage)?.query == "later")
    }

    @Test func aDroppedConnectionIsRestoredAndResynchronized() async throws {
      let key = PostgreSQLServer.freshKey()
      // An instance of its own role, so that the server can refuse it for a while.
      let role = "tracking_away_\(UInt32.random(in: 0...UInt32.max))"
      try await PostgreSQLServer.execute(PostgresQuery(unsafeSQL: "CREATE ROLE \(role) LOGIN SUPERUSER"))
      let errors = ErrorLog()
      let away = Persisted(storage: try PostgreSQLServer.storage(key: key, user: role), onError: errors.report) {
        Scene()
      }
      let other = Persisted(storage: try PostgreSQLServer.storage(key: key)) { Scene() }
      try away.flush()
      try other.flush()

      try await PostgreSQLServer.lockOut(role)
      // While it can't connect: its own change can't be written, and the other
      // instance's notification can't reach it.
      away.model.path = ["written while away"]
      try await eventually { errors.errors.contains { if case .writeFailed = $0 { true } else { false } } }
      other.model.query = "changed while away"
      try other.flush()
      #expect(away.model.query == "")
      #expect(away.hasUnsavedChanges)

      try await PostgreSQLServer.letIn(role)  // the reconnection reads the stored value and retries the write
      try await eventually(within: 120) {
        away.model.query == "changed while away" && other.model.path == ["written while away"]
      }
      #expect(try storedState(other.storage) == SceneState(query: "changed while away", path: ["written while away"]))
      #expect(!away.hasUnsavedChanges)
    }

    @Test func garbageFromAnotherInstanceIsMovedAsideAndTheGoodStateRestored() async throws {
      let key = PostgreSQLServer.freshKey()
      let errors = ErrorLog()
      let persisted = Persisted(storage: try PostgreSQLServer.storage(key: key), onError: errors.report) { Scene() }
      persisted.model.query = "good"
      try persisted.flush()
      try PostgreSQLServer.storage(key: key).save(Data("not json".utf8))
      try await eventually { !errors.errors.isEmpty }
      guard case .corrupt(_, let location) = errors.errors.first else {
        Issue.record("expected a corrupt error, got \(errors.errors)")
        return
      }
      #expect(try persisted.storage.quarantinedData(at: location) == Data("not json".utf8))
      try await eventually { try storedState(persisted.storage)?.query == "good" }
      #expect(persisted.model.query == "good")
    }

    // MARK: Keys (issue 40, item 2)

    @Test(arguments: [
      "with a space", #"with "quotes" and 'apostrophes'"#, "ключ ✓ 🔑", "  padded  ",
      String(repeating: "a key longer than a notification holds ", count: 40),
    ])
    func aKeyWithSpacesQuotesOrAnyUnicodeGetsChangeNotifications(_ name: String) async throws {
      let key = "\(PostgreSQLServer.freshKey()) \(name)"
      let writer = Persisted(storage: try PostgreSQLServer.storage(key: key)) { Scene() }
      let reader = Persisted(storage: try PostgreSQLServer.storage(key: key)) { Scene() }
      try writer.flush()
      try reader.flush()
      // The first change may reach the reader when its listening starts; the second
      // only through a notification.
      writer.model.query = "first"
      try writer.flush()
      try await eventually(within: 30) { reader.model.query == "first" }
      writer.model.query = "second"
      try writer.flush()
      try await eventually(within: 30) { reader.model.query == "second" }
      #expect(try storedState(reader.storage)?.query == "second")
    }

    @Test func aKeyWithANULCharacterIsRefusedAtCreation() {
      #expect(throws: PostgreSQLStorage.InvalidKey.self) {
        _ = try PostgreSQLServer.storage(key: "before\u{0}after")
      }
    }

    // MARK: Unavailable at launch, bounded waits, failures in words (items 3, 4, 6)

    #if os(Linux)
      @Test(.timeLimit(.minutes(2)))
      func aServerDownAtLaunchIsWaitedForAndNothingIsLost() async throws {
        let key = PostgreSQLServer.freshKey()
        let direct = try PostgreSQLServer.storage(key: key)
        try direct.save(Data(#"{"filters":{"onlyFavorites":false},"path":[],"query":"stored before","zoom":1}"#.utf8))
        let proxy = try PostgreSQLServer.proxy()
        let through = proxy.url(replacingIn: try #require(PostgreSQLServer.url))
        let persisted = Persisted(storage: try PostgreSQLServer.storage(key: key, through: through, timeout: 2)) {
          Scene()
        }
        guard case .restoring(.readFailed(let underlying)?) = persisted.status else {
          Issue.record("expected restoring, got \(persisted.status)")
          return
        }
        #expect((underlying as? PostgreSQLFailure)?.kind == .connectionRefused)
        persisted.model.path = ["changed while the server was down"]
        #expect(throws: PersistenceError.self) { try persisted.flush() }
        #expect(persisted.hasUnsavedChanges)

        try proxy.start()  // the server is back
        try await eventually(within: 60) { persisted.status == .saved && persisted.model.query == "stored before" }
        #expect(persisted.model.path == ["changed while the server was down"])
        #expect(
          try storedState(direct) == SceneState(query: "stored before", path: ["changed while the server was down"]))
        proxy.stop()
      }
    #endif

    @Test(.timeLimit(.minutes(2)))
    func aRowLockedByAnotherSessionMakesFlushThrowATimeout() async throws {
      let key = PostgreSQLServer.freshKey()
      let storage = try PostgreSQLServer.storage(key: key, timeout: 1)
      let persisted = Persisted(storage: storage) { Scene() }
      try persisted.flush()
      let session = try await PostgreSQLServer.session()
      try await session.query("BEGIN", logger: PostgreSQLServer.logger)
      try await session.query(
        "SELECT key FROM tracking_persistence WHERE key = \(key) FOR UPDATE", logger: PostgreSQLServer.logger)

      persisted.model.query = "waits for the row"
      #expect {
        try persisted.flush()
      } throws: { error in
        guard case .writeFailed(let underlying) = error as? PersistenceError else { return false }
        return underlying is StorageTimeout
      }
      #expect(persisted.hasUnsavedChanges)
      try await session.query("ROLLBACK", logger: PostgreSQLServer.logger)
      try await session.close()
      try await eventually(within: 60) {
        try storedState(storage)?.query == "waits for the row" && persisted.status == .saved
      }
    }

    #if os(Linux)
      @Test(.timeLimit(.minutes(2)))
      func aServerThatNeverAnswersTimesOut() async throws {
        let proxy = try PostgreSQLServer.proxy()
        try proxy.start(.blackHole)
        let through = proxy.url(replacingIn: try #require(PostgreSQLServer.url))
        let storage = try PostgreSQLServer.storage(key: PostgreSQLServer.freshKey(), through: through, timeout: 0.5)
        #expect(throws: StorageTimeout.self) { _ = try storage.load() }
        let persisted = Persisted(storage: storage) { Scene() }
        guard case .restoring(.readFailed(let underlying)?) = persisted.status else {
          Issue.record("expected restoring, got \(persisted.status)")
          return
        }
        #expect(underlying is StorageTimeout)
        #expect(throws: PersistenceError.self) { try persisted.flush() }
        storage.close()
        proxy.stop()
      }
    #endif

    @Test func failuresSayWhatFailed() async throws {
      #if os(Linux)
        // Refused: nothing listens.
        let proxy = try PostgreSQLServer.proxy()
        let refused = try PostgreSQLServer.storage(
          key: "k", through: proxy.url(replacingIn: try #require(PostgreSQLServer.url)), timeout: 2)
        let refusal = try #require(failure { _ = try refused.load() } as? PostgreSQLFailure)
        #expect(refusal.kind == .connectionRefused)
        #expect("\(refusal)".contains("refused the connection"), "\(refusal)")
      #endif

      // Login refused.
      let role = "tracking_nologin_\(UInt32.random(in: 0...UInt32.max))"
      try await PostgreSQLServer.execute(PostgresQuery(unsafeSQL: "CREATE ROLE \(role) NOLOGIN"))
      let login = try #require(
        failure { _ = try PostgreSQLServer.storage(key: "k", user: role).load() } as? PostgreSQLFailure)
      #expect(login.kind == .authenticationFailed)
      #expect(login.sqlState == "28000")
      #expect("\(login)".contains("refused the login of \"\(role)\""), "\(login)")
      #expect("\(login)".contains("not permitted to log in"), "\(login)")

      // A table of the wrong shape: the server's error, with its SQLSTATE.
      let table = "wrong_shape_\(UInt32.random(in: 0...UInt32.max))"
      try await PostgreSQLServer.execute(
        PostgresQuery(unsafeSQL: "CREATE TABLE \(table) (key text PRIMARY KEY, payload text)"))
      let shape = try #require(
        failure { _ = try PostgreSQLServer.storage(key: "k", table: table).load() } as? PostgreSQLFailure)
      #expect(shape.kind == .serverError)
      #expect(shape.sqlState == "42703")  // undefined_column
      #expect("\(shape)".contains("column"), "\(shape)")
      #expect("\(shape)".contains("SQLSTATE 42703"), "\(shape)")
      #expect(!"\(shape)".contains("Generic description"))
    }

    private func failure(_ body: () throws -> Void) -> (any Error)? {
      do {
        try body()
        return nil
      } catch {
        return error
      }
    }

    // MARK: Conflicts (item 7)

    @Test func twoClientsConvergeByCommitOrderAndAResolverAddsTheirCounts() async throws {
      let key = PostgreSQLServer.freshKey()
      let first = Persisted(
        storage: try PostgreSQLServer.storage(key: key), savePolicy: .debounce(seconds: 3600),
        resolvingConflicts: addingIncrements
      ) { Tally() }
      let second = Persisted(
        storage: try PostgreSQLServer.storage(key: key), savePolicy: .debounce(seconds: 3600),
        resolvingConflicts: addingIncrements
      ) { Tally() }
      try first.synchronize()
      try second.synchronize()
      for round in 0..<20 {
        first.model.visits += 1
        second.model.visits += 2
        first.model.note = "first \(round)"
        second.model.note = "second \(round)"
        if Bool.random() {
          try first.flush()
          try second.flush()  // commits last: its note wins
        } else {
          try second.flush()
          try first.flush()
        }
      }
      try first.synchronize()
      try second.synchronize()
      #expect(first.model.visits == 60 && second.model.visits == 60)
      #expect(first.model.note == second.model.note)
      let stored = try JSONDecoder().decode(
        [String: AnyCodableScalar].self, from: try #require(try first.storage.load()))
      #expect(stored["visits"] == .int(60))
      #expect(stored["note"] == .string(first.model.note))
    }

    #if os(Linux)
      @Test(.timeLimit(.minutes(2)))
      func twoInstancesInTwoProcessesLoseNothingAndAgreeThroughDroppedConnections() async throws {
        let url = try #require(PostgreSQLServer.url)
        let key = PostgreSQLServer.freshKey()
        try await runSharedWriters(
          backend: "postgres", location: url, key: key, storage: try PostgreSQLServer.storage(key: key), count: 2,
          iterations: 100
        ) { writers, specs in
          // Drop the first writer's connection a few times while both write.
          var drops = 0
          for _ in 0..<3 {
            drops += try await PostgreSQLServer.dropConnections(named: specs[0].applicationName)
            try await Task.sleep(for: .milliseconds(50))
          }
          #expect(drops >= 1)
        }
      }
    #endif
  }
#endif
