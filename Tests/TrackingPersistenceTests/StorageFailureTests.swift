import Foundation
import Testing
import Tracking
import TrackingPersistence

#if SQLite
  import GRDB
#endif

/// A storage that can't be read at launch never turns saving off silently: a transient
/// failure is retried until it recovers, a permanent one makes `flush()` throw, and
/// the status says which.
@MainActor
@Suite("Storage unavailable at launch")
struct StorageFailureTests {
  @Test func aPathThatIsADirectoryMakesFlushThrowAndKeepsChangesUnsaved() throws {
    let directory = try TemporaryDirectory()
    let path = directory.url.appendingPathComponent("scene.json")
    try FileManager.default.createDirectory(at: path, withIntermediateDirectories: false)
    let errors = ErrorLog()
    let persisted = Persisted(storage: JSONFileStorage(url: path), onError: errors.report) { Scene() }
    persisted.model.query = "not saved"

    #expect(throws: TrackingPersistence.PersistenceError.self) { try persisted.flush() }
    #expect(persisted.hasUnsavedChanges)
    #expect(!errors.errors.isEmpty)
    guard case .failed(.readFailed(let underlying)) = persisted.status, let failure = underlying as? POSIXFailure else {
      Issue.record("expected a failed read, got \(persisted.status)")
      return
    }
    #expect(failure.code == EISDIR)
  }

  @Test func anUnreadableStorageIsNeverOverwrittenAndIsReadOnceItCanBe() throws {
    let directory = try TemporaryDirectory()
    let base = JSONFileStorage(url: directory.url.appendingPathComponent("scene.json"))
    try base.save(Data(#"{"query":"precious","path":["kept"],"zoom":1,"filters":{"onlyFavorites":false}}"#.utf8))
    let storage = FaultyStorage(base, failReads: true)
    let persisted = Persisted(storage: storage) { Scene() }

    guard case .readFailed(let underlying) = persisted.restoreError else {
      Issue.record("expected a read failure, got \(String(describing: persisted.restoreError))")
      return
    }
    #expect(underlying is FaultyStorage.Fault)
    #expect(!persisted.isSaving)
    persisted.model.query = "changed while unreadable"
    #expect(throws: TrackingPersistence.PersistenceError.self) { try persisted.flush() }
    #expect(persisted.hasUnsavedChanges)
    #expect(storage.writeAttempts == 0)
    #expect(try storedState(base) == SceneState(query: "precious", path: ["kept"]))

    // Readable again: the next flush reads it, merges it (the change made here wins;
    // the rest is the stored state) and writes.
    storage.isFailingReads = false
    try persisted.flush()
    #expect(persisted.status == .saved)
    #expect(SceneState(persisted.model) == SceneState(query: "changed while unreadable", path: ["kept"]))
    #expect(try storedState(base) == SceneState(query: "changed while unreadable", path: ["kept"]))
  }

  @Test func aStorageThatTimesOutAtLaunchIsRetriedInTheBackgroundAndRecovers() async throws {
    let directory = try TemporaryDirectory()
    let base = JSONFileStorage(url: directory.url.appendingPathComponent("scene.json"))
    try base.save(Data(#"{"query":"stored","path":["from before"],"zoom":1,"filters":{"onlyFavorites":false}}"#.utf8))
    // A lock held elsewhere for the first few tries, as a busy database would be.
    let storage = FaultyStorage(
      base, failingReads: 3, readError: StorageTimeout(waitingFor: "a lock held elsewhere", seconds: 0.1))
    let persisted = Persisted(storage: storage) { Scene() }

    guard case .restoring(.readFailed(let underlying)?) = persisted.status else {
      Issue.record("expected restoring after a timeout, got \(persisted.status)")
      return
    }
    #expect(underlying is StorageTimeout)
    persisted.model.path = ["changed meanwhile"]
    #expect(persisted.hasUnsavedChanges)

    try await eventually { persisted.status == .saved && persisted.model.query == "stored" }
    #expect(persisted.model.path == ["changed meanwhile"])  // made here after launch: it wins
    #expect(try storedState(base) == SceneState(query: "stored", path: ["changed meanwhile"]))
    #expect(!persisted.hasUnsavedChanges)
    #expect(storage.readAttempts >= 4)
  }

  @Test func theStatusFollowsSavesAndFailures() async throws {
    let directory = try TemporaryDirectory()
    let storage = FaultyStorage(JSONFileStorage(url: directory.url.appendingPathComponent("scene.json")))
    let persisted = Persisted(storage: storage, savePolicy: .debounce(seconds: 3600)) { Scene() }
    try persisted.flush()
    #expect(persisted.status == .saved)
    let seen = StatusLog()
    let token = observe { seen.values.append(persisted.status) }

    persisted.model.query = "waiting"
    try await eventually { persisted.status == .saving }
    storage.isFailingWrites = true
    #expect(throws: TrackingPersistence.PersistenceError.self) { try persisted.flush() }
    guard case .failed(.writeFailed) = persisted.status else {
      Issue.record("expected a failed write, got \(persisted.status)")
      return
    }
    storage.isFailingWrites = false
    try persisted.flush()
    #expect(persisted.status == .saved)
    #expect(seen.values == [.saved, .saving, .failed(.writeFailed(underlying: FaultyStorage.Fault())), .saved])
    token.cancel()
  }

  /// The statuses an observation saw.
  @MainActor final class StatusLog {
    var values: [PersistenceStatus] = []
  }

  #if SQLite
    @Test func anSQLiteTableOfTheWrongShapeMakesFlushThrow() throws {
      let directory = try TemporaryDirectory()
      let path = directory.url.appendingPathComponent("scene.sqlite").path
      try DatabaseQueue(path: path).write { db in
        try db.execute(sql: "CREATE TABLE tracking_persistence (key TEXT PRIMARY KEY, payload BLOB)")
      }
      let persisted = Persisted(storage: try SQLiteStorage(path: path, key: "scene")) { Scene() }
      persisted.model.query = "not saved"
      #expect(throws: TrackingPersistence.PersistenceError.self) { try persisted.flush() }
      #expect(persisted.hasUnsavedChanges)
      guard case .failed(.readFailed) = persisted.status else {
        Issue.record("expected a failed read, got \(persisted.status)")
        return
      }
    }
  #endif
}

#if os(Linux) && DEBUG
  /// The default `onError`: a warning a developer sees (standard error, debug builds).
  @Suite("Default error handler")
  struct DefaultErrorHandlerTests {
    static let variable = "TRACKING_PERSISTENCE_DEFAULT_HANDLER"

    /// The child's work: a persisted model at a path that is a directory, with the
    /// default `onError`.
    @MainActor @Test func persistenceDefaultHandlerEntry() throws {
      guard let path = ProcessInfo.processInfo.environment[Self.variable] else { return }
      let persisted = Persisted(storage: JSONFileStorage(url: URL(fileURLWithPath: path))) { Scene() }
      _ = persisted.status
    }

    @Test(.timeLimit(.minutes(1)))
    func isAWarningOnStandardErrorInDebugBuilds() async throws {
      let directory = try TemporaryDirectory()
      let child = try ChildProcess(
        entry: "persistenceDefaultHandlerEntry", variable: Self.variable, value: directory.url.path,
        capturingStandardError: true)
      #expect(try await child.waitForExit(within: 50))
      let warnings = child.output.text.split(separator: "\n").filter { $0.hasPrefix("warning: TrackingPersistence: ") }
      #expect(warnings.count == 1, "\(child.output.text)")
      #expect(warnings.first?.contains("could not be read") == true)
    }
  }
#endif
