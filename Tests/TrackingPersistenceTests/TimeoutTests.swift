import Foundation
import Testing
import Tracking
import TrackingPersistence

#if canImport(Glibc)
  import Glibc
#endif
#if SQLite
  import GRDB
#endif

/// No wait is unbounded: a lock another writer holds (a stopped process, say) makes
/// `flush()` throw ``StorageTimeout`` after the storage's timeout, and the write happens
/// once the lock is free.
@MainActor
@Suite("Bounded waits")
struct TimeoutTests {
  /// The first save, with nothing in its way. The storage's short timeout bounds it
  /// too, and a busy machine (ThreadSanitizer, other tests) can starve the write past
  /// it: retried until it lands, since only the later saves are what the tests check.
  private func firstSave(_ persisted: Persisted<Scene>) async throws {
    try await eventually { (try? persisted.flush()) != nil }
  }

  #if !os(Windows)
    /// Holds the exclusive lock of a file storage, as another process mid-save (or
    /// stopped mid-save) would. Lets go by itself after `valve` seconds at the latest,
    /// so a flush that waited without bound still ends (and the test fails); late enough
    /// that a test starved by a busy machine still sees the timeout first.
    final class LockHolder: @unchecked Sendable {
      private let descriptor: Int32

      init(_ url: URL, valve: Double = 100) {
        descriptor = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        flock(descriptor, LOCK_EX)
        // Weakly: once the holder is gone its descriptor is closed (which released the
        // lock), and the number may already name another file's descriptor.
        DispatchQueue.global().asyncAfter(deadline: .now() + valve) { [weak self] in self?.release() }
      }

      func release() { flock(descriptor, LOCK_UN) }

      deinit { close(descriptor) }
    }

    @Test func aFileLockHeldElsewhereMakesFlushThrowATimeoutAndTheWriteHappensLater() async throws {
      let directory = try TemporaryDirectory()
      let storage = JSONFileStorage(url: directory.url.appendingPathComponent("scene.json"), timeout: 0.2)
      let persisted = Persisted(storage: storage, savePolicy: .debounce(seconds: 3600)) { Scene() }
      try await firstSave(persisted)
      let holder = LockHolder(storage.lockURL)

      persisted.model.query = "waits for the lock"
      #expect {
        try persisted.flush()
      } throws: { error in
        guard case .writeFailed(let underlying) = error as? TrackingPersistence.PersistenceError else { return false }
        return underlying is StorageTimeout
      }
      #expect(persisted.hasUnsavedChanges)
      // (The flush stops waiting when the write does, or just before: then the write
      // reports its own timeout a moment later.)
      try await eventually {
        if case .failed(.writeFailed(let underlying)) = persisted.status { underlying is StorageTimeout } else { false }
      }

      holder.release()  // the write is retried in the background
      try await eventually { try storedState(storage)?.query == "waits for the lock" && persisted.status == .saved }
      #expect(!persisted.hasUnsavedChanges)
    }
  #endif

  #if SQLite
    @Test func anSQLiteDatabaseLockedByAnotherConnectionMakesFlushThrowATimeout() async throws {
      let directory = try TemporaryDirectory()
      let path = directory.url.appendingPathComponent("scene.sqlite").path
      let storage = try SQLiteStorage(path: path, key: "scene", timeout: 0.2)
      let persisted = Persisted(storage: storage, savePolicy: .debounce(seconds: 3600)) { Scene() }
      try await firstSave(persisted)
      var configuration = Configuration()
      configuration.allowsUnsafeTransactions = true  // the transaction stays open between the two calls
      let other = try DatabaseQueue(path: path, configuration: configuration)
      try await other.writeWithoutTransaction { try $0.execute(sql: "BEGIN IMMEDIATE") }  // holds the write lock

      persisted.model.query = "waits for the database"
      #expect {
        try persisted.flush()
      } throws: { error in
        guard case .writeFailed(let underlying) = error as? TrackingPersistence.PersistenceError else { return false }
        return underlying is StorageTimeout
      }
      #expect(persisted.hasUnsavedChanges)

      try await other.writeWithoutTransaction { try $0.execute(sql: "ROLLBACK") }
      try await eventually { try storedState(storage)?.query == "waits for the database" && persisted.status == .saved }
    }
  #endif
}
