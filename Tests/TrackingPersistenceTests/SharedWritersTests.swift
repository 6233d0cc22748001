#if os(Linux)
  import Foundation
  import Testing
  import Tracking
  import TrackingPersistence

  /// A model several processes edit at once: each its own slot, and all of them `last`.
  @Trackable final class Board: Codable, ReloadableModel {
    var slot0 = 0
    var slot1 = 0
    var slot2 = 0
    var slot3 = 0
    var last = ""

    subscript(slot index: Int) -> Int {
      get { [slot0, slot1, slot2, slot3][index] }
      set {
        switch index {
        case 0: slot0 = newValue
        case 1: slot1 = newValue
        case 2: slot2 = newValue
        default: slot3 = newValue
        }
      }
    }

    func reload(from newer: Board) {
      slot0 = newer.slot0
      slot1 = newer.slot1
      slot2 = newer.slot2
      slot3 = newer.slot3
      last = newer.last
    }
  }

  /// A board's values, for comparing a live model with what is stored.
  struct BoardState: Codable, Equatable, CustomStringConvertible {
    var slot0, slot1, slot2, slot3: Int
    var last: String

    @MainActor init(_ board: Board) {
      (slot0, slot1, slot2, slot3, last) = (board.slot0, board.slot1, board.slot2, board.slot3, board.last)
    }

    init?(stored data: Data?) {
      guard let data, let state = try? JSONDecoder().decode(BoardState.self, from: data) else { return nil }
      self = state
    }

    func slot(_ index: Int) -> Int { [slot0, slot1, slot2, slot3][index] }

    var description: String { "[\(slot0), \(slot1), \(slot2), \(slot3)] last \"\(last)\"" }
  }

  /// What a writer process is told to do (as JSON in ``sharedWriterVariable``).
  struct WriterSpec: Codable {
    var backend: String  // "file", "sqlite" or "postgres"
    var location: String  // a directory, or a PostgreSQL URL
    var key: String
    var index: Int
    var iterations: Int
    var stopFile: String

    func storage() throws -> any PersistenceStorage {
      switch backend {
      case "file":
        return JSONFileStorage(url: URL(fileURLWithPath: location).appendingPathComponent("board.json"))
      #if SQLite
        case "sqlite":
          return try SQLiteStorage(
            path: URL(fileURLWithPath: location).appendingPathComponent("board.sqlite").path, key: key,
            changePollingInterval: 0.02)
      #endif
      #if PostgreSQL
        case "postgres":
          return try PostgreSQLStorage(url: location, key: key, applicationName: applicationName)
      #endif
      default:
        throw CocoaError(.featureUnsupported)
      }
    }

    /// How a writer's PostgreSQL connection shows in `pg_stat_activity`.
    var applicationName: String { "tracking-writer-\(index)-\(key)" }
  }

  let sharedWriterVariable = "TRACKING_PERSISTENCE_SHARED_WRITER"

  /// Runs `count` writer processes on one storage and checks what they leave behind:
  /// every acknowledged write is stored, and every process's model equals the stored
  /// state. `whileRunning` runs in the parent once every writer has started writing.
  @MainActor func runSharedWriters(
    backend: String, location: String, key: String, storage: any PersistenceStorage, count: Int, iterations: Int,
    whileRunning: (_ writers: [ChildProcess], _ specs: [WriterSpec]) async throws -> Void = { _, _ in }
  ) async throws {
    let control = try TemporaryDirectory()
    let stopFile = control.url.appendingPathComponent("stop").path
    let specs = (0..<count).map {
      WriterSpec(
        backend: backend, location: location, key: key, index: $0, iterations: iterations, stopFile: stopFile)
    }
    let writers = try specs.map { spec in
      try ChildProcess(
        entry: "persistenceSharedWriterEntry", variable: sharedWriterVariable,
        value: String(decoding: try JSONEncoder().encode(spec), as: UTF8.self), capturingStandardError: true)
    }
    defer { writers.forEach { $0.kill() } }

    func waitUntil(_ what: String, within seconds: Double, _ condition: () -> Bool) async throws -> Bool {
      let deadline = Date().addingTimeInterval(seconds)
      while !condition() {
        guard Date() < deadline, writers.allSatisfy({ $0.isRunning }) else {
          Issue.record("writers did not \(what): \(writers.map { $0.output.text })")
          return false
        }
        try await Task.sleep(for: .milliseconds(5))
      }
      return true
    }
    guard try await waitUntil("start", within: 60, { writers.allSatisfy { !$0.output.values("acked").isEmpty } })
    else { return }
    try await whileRunning(writers, specs)
    guard try await waitUntil("finish", within: 90, { writers.allSatisfy { !$0.output.values("done").isEmpty } })
    else { return }
    #expect(FileManager.default.createFile(atPath: stopFile, contents: nil))
    for writer in writers {
      #expect(try await writer.waitForExit(within: 60), "a writer did not exit")
    }

    let stored = try #require(BoardState(stored: try storage.load()), "nothing readable is stored")
    for (index, writer) in writers.enumerated() {
      let acknowledged = writer.output.values("acked").compactMap { Int($0) }
      #expect(acknowledged.max() == iterations, "writer \(index) did not acknowledge its last write")
      #expect(stored.slot(index) == iterations, "writer \(index)'s acknowledged write is lost: \(stored)")
      let final = writer.output.values("state").last
      #expect(final == "\(stored)", "writer \(index)'s model differs from the stored state")
    }
    #expect((0..<count).contains { stored.last == "\($0):\(iterations)" }, "last is not a final write: \(stored)")
  }

  @Suite("Writers in several processes", .serialized)
  struct SharedWritersTests {
    /// A writer process's work; returns at once unless the test binary was started by
    /// ``runSharedWriters(backend:location:storage:count:iterations:whileRunning:)``.
    @MainActor @Test func persistenceSharedWriterEntry() async throws {
      guard let json = ProcessInfo.processInfo.environment[sharedWriterVariable] else { return }
      let spec = try JSONDecoder().decode(WriterSpec.self, from: Data(json.utf8))
      let storage = try spec.storage()
      let persisted = Persisted(storage: storage, onError: { tell("error", "\($0)") }) { Board() }
      let giveUp = Date().addingTimeInterval(120)  // in case the parent goes away

      for step in 1...spec.iterations {
        persisted.model[slot: spec.index] = step
        persisted.model.last = "\(spec.index):\(step)"
        if step % 10 == 0 || step == spec.iterations {
          // Acknowledged once a flush returns; while the storage is unreachable, retry.
          while (try? persisted.flush()) == nil {
            guard Date() < giveUp else { return }
            try await Task.sleep(for: .milliseconds(20))
          }
          tell("acked", "\(step)")
        }
        try await Task.sleep(for: .microseconds(Int.random(in: 100...2000)))  // let the others in
      }
      tell("done", "\(spec.iterations)")

      while !FileManager.default.fileExists(atPath: spec.stopFile) {
        guard Date() < giveUp else { return }
        try await Task.sleep(for: .milliseconds(5))
      }
      // Everyone stopped: the change reports alone must bring this model to the stored state.
      while BoardState(persisted.model) != BoardState(stored: try? storage.load()) {
        guard Date() < giveUp else { break }
        try await Task.sleep(for: .milliseconds(5))
      }
      tell("state", "\(BoardState(persisted.model))")
    }

    @Test(.timeLimit(.minutes(2)), arguments: Backend.allCases)
    func concurrentWritersLoseNothingAndAgree(_ backend: Backend) async throws {
      let directory = try TemporaryDirectory()
      let key = "board"
      let (name, storage): (String, any PersistenceStorage) =
        switch backend {
        case .file, .filePolling:
          ("file", JSONFileStorage(url: directory.url.appendingPathComponent("board.json")))
        #if SQLite
          case .sqlite:
            ("sqlite", try SQLiteStorage(path: directory.url.appendingPathComponent("board.sqlite").path, key: key))
        #endif
        }
      try await runSharedWriters(
        backend: name, location: directory.url.path, key: key, storage: storage, count: 4, iterations: 100)
    }
  }
#endif
