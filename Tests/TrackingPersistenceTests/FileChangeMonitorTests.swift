#if os(Linux)
  import Foundation
  import Glibc
  import Testing
  import TrackingPersistence

  /// The file monitor's Linux reader (inotify) under the conditions that drop or end
  /// events: nothing another process stores may go unnoticed.
  @Suite("File change events under faults", .serialized)
  struct FileChangeMonitorTests {
    /// Counts reports; the first one blocks the monitor until released, so events pile
    /// up in the kernel's queue meanwhile.
    final class BlockingReports: @unchecked Sendable {
      private let lock = NSLock()
      private var count = 0
      private let release = DispatchSemaphore(value: 0)

      var reports: Int { lock.withLock { count } }

      func report() {
        let first = lock.withLock {
          count += 1
          return count == 1
        }
        if first { release.wait() }
      }

      func unblock() { release.signal() }
    }

    /// More events than the kernel queues for one inotify instance (16 384 by default).
    static func queueLimit() -> Int {
      let text = (try? String(contentsOfFile: "/proc/sys/fs/inotify/max_queued_events", encoding: .utf8)) ?? ""
      return Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 16_384
    }

    @Test(.timeLimit(.minutes(2)))
    func aChangeAfterTheEventQueueOverflowedIsReported() async throws {
      let directory = try TemporaryDirectory()
      let storage = JSONFileStorage(url: directory.url.appendingPathComponent("scene.json"))
      try storage.save(Data(#"{"query":"first"}"#.utf8))
      let reports = BlockingReports()
      let observation = try storage.observeChanges { reports.report() }
      defer { observation.cancel() }

      try storage.save(Data(#"{"query":"second"}"#.utf8))
      try await eventuallyTrue { reports.reports == 1 }  // the monitor is now blocked in its report
      // Another file of the directory changes so often that the kernel's queue
      // overflows (each round is three events: created, closed after writing, deleted);
      // then the watched file changes: its events are dropped with the overflow.
      let other = directory.url.appendingPathComponent("other").path
      for _ in 0..<(Self.queueLimit() / 3 + 100) {
        let descriptor = open(other, O_WRONLY | O_CREAT, 0o644)
        close(descriptor)
        unlink(other)
      }
      try storage.save(Data(#"{"query":"third"}"#.utf8))
      reports.unblock()
      // The overflow itself must count as a change: the file is read again.
      try await eventuallyTrue(within: 30) { reports.reports >= 2 }
    }

    @Test(.timeLimit(.minutes(2)))
    func aDirectoryMovedAwayAndMadeAgainIsStillWatched() async throws {
      let parent = try TemporaryDirectory()
      let directory = parent.url.appendingPathComponent("data")
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
      let storage = JSONFileStorage(url: directory.appendingPathComponent("scene.json"))
      try storage.save(Data(#"{"query":"first"}"#.utf8))
      let reports = ReportCount()
      let observation = try storage.observeChanges { reports.add() }
      defer { observation.cancel() }

      // The directory is moved away (a sync tool, a restore from backup) and a new one
      // takes its place: the watch on the old one sees nothing of the new file.
      try FileManager.default.moveItem(at: directory, to: parent.url.appendingPathComponent("old"))
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
      try await eventuallyTrue(within: 30) { reports.count >= 1 }  // the watch ended: reported
      let before = reports.count
      try storage.save(Data(#"{"query":"in the new directory"}"#.utf8))
      try await eventuallyTrue(within: 30) { reports.count > before }
    }
  }

  final class ReportCount: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    var count: Int { lock.withLock { value } }
    func add() { lock.withLock { value += 1 } }
  }

  /// Waits, suspending, until `condition` holds; records an issue after `seconds`.
  func eventuallyTrue(
    within seconds: Double = 120, sourceLocation: SourceLocation = #_sourceLocation, _ condition: () -> Bool
  ) async throws {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
      guard Date() < deadline else {
        Issue.record("condition not met within \(seconds) s", sourceLocation: sourceLocation)
        return
      }
      try await Task.sleep(for: .milliseconds(1))
    }
  }
#endif
