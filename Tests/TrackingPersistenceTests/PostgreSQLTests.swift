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
    /// in as `user` (the URL's user by default).
    static func storage(key: String, name: String? = nil, user: String? = nil) throws -> PostgreSQLStorage {
      var components = URLComponents(string: url ?? "")
      if let user { components?.user = user }
      return try PostgreSQLStorage(url: components?.string ?? "", key: key, applicationName: name)
    }

    /// Runs `sql` on a connection of its own; returns the first column of the first row.
    @discardableResult
    static func execute(_ sql: PostgresQuery) async throws -> String? {
      let configuration = try storage(key: "admin").configuration
      var logger = Logger(label: "TrackingPersistenceTests.admin")
      logger.logLevel = .critical
      let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
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
