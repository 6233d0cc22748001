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

    /// A storage for `key`, its connection named `name` in `pg_stat_activity`.
    static func storage(key: String, name: String? = nil) throws -> PostgreSQLStorage {
      try PostgreSQLStorage(url: url ?? "", key: key, applicationName: name)
    }

    /// Closes, from the server's side, every connection named `name`; returns how many.
    @discardableResult
    static func dropConnections(named name: String) async throws -> Int {
      let configuration = try storage(key: "admin").configuration
      var logger = Logger(label: "TrackingPersistenceTests.admin")
      logger.logLevel = .critical
      let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
      do {
        let rows = try await connection.query(
          "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = \(name)",
          logger: logger)
        var count = 0
        for try await row in rows { count = Int(try row.decode(Int64.self)) }
        try await connection.close()
        return count
      } catch {
        try? await connection.close()
        throw error
      }
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
      let name = "tracking-drop-\(key)"
      let errors = ErrorLog()
      let dropped = Persisted(storage: try PostgreSQLServer.storage(key: key, name: name), onError: errors.report) {
        Scene()
      }
      let other = Persisted(storage: try PostgreSQLServer.storage(key: key)) { Scene() }
      try dropped.flush()
      try other.flush()
      #expect(try await PostgreSQLServer.dropConnections(named: name) == 1)

      // Keep it away while the other instance writes: the notification is lost for it.
      dropped.model.path = ["written while away"]
      other.model.query = "changed while away"
      try other.flush()
      for _ in 0..<5 { try await PostgreSQLServer.dropConnections(named: name) }

      try await eventually(within: 20) {
        dropped.model.query == "changed while away" && other.model.path == ["written while away"]
      }
      #expect(try storedState(other.storage) == SceneState(query: "changed while away", path: ["written while away"]))
      #expect(!dropped.hasUnsavedChanges)
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
