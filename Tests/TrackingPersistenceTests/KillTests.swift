#if os(Linux)
  import Foundation
  import Glibc
  import Testing
  import Tracking
  import TrackingPersistence

  /// The state a child process saves continuously: a counter, and a payload that
  /// repeats it (so that a torn or mixed value would show).
  @Trackable final class Counter: Codable {
    var value = 0
    var payload: [Int] = []
  }

  struct CounterState: Codable {
    var value: Int
    var payload: [Int]
  }

  /// Environment variable that turns ``KillTests/persistenceKillTestChildEntry()`` into
  /// the saving child: `<backend>|<directory>`.
  let killChildVariable = "TRACKING_PERSISTENCE_KILL_CHILD"

  @Suite("Killed while saving", .serialized)
  struct KillTests {
    /// The child process's work; returns at once unless the test binary was started by
    /// ``killedWhileSavingLeavesTheLatestOrAnEarlierState(_:)``.
    @MainActor @Test func persistenceKillTestChildEntry() async throws {
      guard let spec = ProcessInfo.processInfo.environment[killChildVariable] else { return }
      let parts = spec.split(separator: "|", maxSplits: 1).map(String.init)
      let backend = try #require(Backend(rawValue: parts[0]))
      let storage = try backend.storage(in: URL(fileURLWithPath: parts[1]))
      let persisted = Persisted(storage: storage) { Counter() }
      var value = persisted.model.value
      let deadline = Date().addingTimeInterval(30)  // in case the parent goes away
      while Date() < deadline {
        value += 1
        report(value)  // before the change: whatever is stored is at most this
        persisted.model.value = value
        persisted.model.payload = Array(repeating: value, count: 500)
        await Task.yield()
      }
    }

    @Test(.timeLimit(.minutes(1)), arguments: Backend.allCases)
    func killedWhileSavingLeavesTheLatestOrAnEarlierState(_ backend: Backend) async throws {
      let directory = try TemporaryDirectory()
      let storage = try backend.storage(in: directory.url)
      let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
      var lastSeen = 0
      var highestReported = 0
      for _ in 0..<10 {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: executable)
        child.arguments = ["--testing-library", "swift-testing", "--filter", "persistenceKillTestChildEntry"]
        var environment = ProcessInfo.processInfo.environment
        environment[killChildVariable] = "\(backend.rawValue)|\(directory.url.path)"
        child.environment = environment
        let output = Pipe()
        let reports = OutputLines()
        child.standardOutput = output
        child.standardError = FileHandle.nullDevice
        try child.run()
        let reader = PipeReader(output.fileHandleForReading, into: reports)
        defer { kill(child.processIdentifier, SIGKILL) }  // also when an expectation throws

        // Let it save a random number of states past the last one seen, then kill it.
        let target = lastSeen + Int.random(in: 1...40)
        let deadline = Date().addingTimeInterval(20)
        while try stored(storage)?.value ?? 0 < target {
          guard Date() < deadline, child.isRunning else {
            Issue.record("the child stopped saving (at \(try stored(storage)?.value ?? 0))")
            break
          }
          try await Task.sleep(for: .microseconds(Int.random(in: 50...500)))
        }
        kill(child.processIdentifier, SIGKILL)
        while child.isRunning {  // without blocking a thread of the shared pool
          try await Task.sleep(for: .milliseconds(1))
        }
        #expect(try await reader.waitForEnd(within: 20), "the child's output did not end")
        #expect(child.terminationReason == .uncaughtSignal)
        highestReported = max(highestReported, reports.values("counter").compactMap { Int($0) }.max() ?? 0)

        let state = try #require(try stored(storage), "nothing decodable is stored")
        #expect(state.value >= lastSeen, "an older state replaced a newer one")
        #expect(state.value <= highestReported, "a state that was never set is stored")
        #expect(state.payload == Array(repeating: state.value, count: 500), "a mixed state is stored")
        lastSeen = state.value
      }
      #expect(lastSeen > 0)
      // The next writer removes the temporary files a killed save left behind.
      if backend == .file {
        try await cleanUpAfterKills(storage: storage, directory: directory.url)
      }
    }

    @MainActor private func cleanUpAfterKills(storage: any PersistenceStorage, directory: URL) async throws {
      let next = Persisted(storage: storage) { Counter() }
      next.model.value += 1
      try next.flush()
      let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
      #expect(!names.contains { $0.hasSuffix(".tmp") }, "\(names)")
    }

    private func stored(_ storage: any PersistenceStorage) throws -> CounterState? {
      guard let data = try storage.load() else { return nil }
      return try JSONDecoder().decode(CounterState.self, from: data)
    }
  }

  /// Writes `counter <value>` to standard output at once (unbuffered).
  private func report(_ value: Int) {
    let line = Array("counter \(value)\n".utf8)
    _ = line.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
  }

#endif
