import Foundation
import Tracking

/// Stores a persisted model's value in one file: the default backend, with no setup.
///
/// Every save writes a temporary file in the same directory (`.<name>.<random>.tmp`),
/// flushes it to the disk (`fsync`), renames it over the file and flushes the
/// directory, so the file is never torn: after a crash or power loss it holds either
/// the new value or the previous one. A failed save leaves the previous file untouched.
/// A temporary file left behind by a writer that was killed mid-save is removed by the
/// next update of the file, from any process.
///
/// A value that can't be read is moved aside to `<name>.corrupt-<milliseconds since
/// 1970>` next to the file; earlier moved-aside files are never overwritten. Where a
/// name would pass 255 bytes (the longest file name of common file systems), the
/// `<name>` part of these sibling files is shortened, so any file name that can be
/// created can also be saved, locked and moved aside.
///
/// **A symbolic link** at `url` is followed: the file it leads to is read, replaced and
/// moved aside (its temporary and lock files are next to it), and the link stays.
///
/// **Shared by processes.** Several processes (or several ``Persisted`` values) may use
/// one file: every save, move and ``update(_:)`` holds an exclusive lock (`flock`) on the
/// lock file `.<name>.lock` next to the file while it reads, merges and replaces the
/// value, so no writer's change is lost. A writer waits at most ``timeout`` seconds for
/// the lock, then throws ``StorageTimeout``. Changes made by others — a process, or a
/// person with an editor — are seen through ``changeDetection``. (On Windows there is
/// no lock: one process at a time.)
public struct JSONFileStorage: SharedPersistenceStorage {
  /// The file holding the value (or a symbolic link to it).
  public let url: URL
  /// How changes made by others are noticed.
  public let changeDetection: FileChangeDetection
  /// The longest a call waits for another writer's lock, in seconds, before it throws
  /// ``StorageTimeout``.
  public let timeout: TimeInterval
  private let housekeeping = Housekeeping()

  /// A storage that keeps its value in the file at `url`. The directory must exist.
  /// - Parameters:
  ///   - url: The file (or a symbolic link to it).
  ///   - changeDetection: How other writers' changes are noticed.
  ///   - timeout: The longest a call waits for another writer's lock, in seconds.
  public init(url: URL, changeDetection: FileChangeDetection = .events, timeout: TimeInterval = 5) {
    precondition(timeout >= 0 && timeout.isFinite, "a lock timeout is a finite number of seconds, not \(timeout)")
    self.url = url
    self.changeDetection = changeDetection
    self.timeout = timeout
  }

  /// The file the value is in: `url`, or where it leads if it is a symbolic link.
  public var resolvedURL: URL {
    var current = url
    for _ in 0..<32 {  // as the system's limit on links followed
      guard let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: current.path) else {
        return current
      }
      current =
        destination.hasPrefix("/")
        ? URL(fileURLWithPath: destination, isDirectory: false)
        : current.deletingLastPathComponent().appendingPathComponent(destination, isDirectory: false)
    }
    return current
  }

  /// The lock file that serializes updates: `.<name>.lock` next to the file.
  public var lockURL: URL { Self.sibling(of: resolvedURL, prefix: ".", suffix: ".lock") }

  // MARK: SharedPersistenceStorage

  /// Reads, decides and writes under the lock file's exclusive lock.
  public func update(_ decide: (Data?) throws -> StoredValueChange) throws -> StoredValueUpdate {
    try withExclusiveLock { file in
      let stored = try Self.contents(of: file)
      switch try decide(stored) {
      case .keep:
        return StoredValueUpdate(stored: stored)
      case .replace(let data):
        try Self.replace(file, with: data)
        return StoredValueUpdate(stored: data)
      case .moveAside(let reason, let replacement):
        let location = try Self.moveAside(file, reason: reason)
        if let replacement { try Self.replace(file, with: replacement) }
        return StoredValueUpdate(stored: replacement, movedTo: location)
      }
    }
  }

  /// Reports changes of the file, as ``changeDetection`` says.
  public func observeChanges(_ onChange: @escaping @Sendable () -> Void) throws -> StorageObservation {
    monitorFile(at: resolvedURL, detection: changeDetection, onChange: onChange)
  }

  // MARK: PersistenceStorage

  /// The file's bytes, or `nil` if the file doesn't exist.
  /// - Throws: ``POSIXFailure`` (for example `EISDIR` when the path is a directory,
  ///   `EACCES` when the file can't be read).
  public func load() throws -> Data? {
    try Self.contents(of: resolvedURL)
  }

  /// Replaces the file with `data` under the lock: temporary file, `fsync`, `rename`,
  /// `fsync` of the directory.
  public func save(_ data: Data) throws {
    try withExclusiveLock { file in try Self.replace(file, with: data) }
  }

  /// Moves the file to `<name>.corrupt-<timestamp>` without overwriting anything, under
  /// the lock. Returns `nil` if there is no file.
  public func quarantine(reason: String) throws -> QuarantineLocation? {
    try withExclusiveLock { file in try Self.moveAside(file, reason: reason) }
  }

  /// The bytes of a moved-aside file of this storage.
  public func quarantinedData(at location: QuarantineLocation) throws -> Data? {
    guard case .file(let file) = location,
      file.deletingLastPathComponent().standardizedFileURL
        == resolvedURL.deletingLastPathComponent().standardizedFileURL,
      FileManager.default.fileExists(atPath: file.path)
    else { return nil }
    return try Data(contentsOf: file)
  }

  // MARK: Locking

  /// Runs `body` with the file (links followed) while holding the lock file's exclusive
  /// lock; waits at most ``timeout`` for it. The first time, removes the temporary files
  /// that killed writers left (all writes happen under the lock, so any there is
  /// abandoned).
  private func withExclusiveLock<Result>(_ body: (URL) throws -> Result) throws -> Result {
    let file = resolvedURL
    let lockPath = Self.sibling(of: file, prefix: ".", suffix: ".lock").path
    let deadline = DispatchTime.now().uptimeNanoseconds &+ UInt64(timeout * 1e9)
    var pause: UInt64 = 500_000  // nanoseconds; doubles up to 20 ms
    return try FileSystemCalls.withExclusiveLock(onFileAt: lockPath) {
      let now = DispatchTime.now().uptimeNanoseconds
      guard now < deadline else {
        throw StorageTimeout(waitingFor: "the lock file \(lockPath) (another writer holds it)", seconds: timeout)
      }
      Thread.sleep(forTimeInterval: Double(min(pause, deadline - now)) / 1e9)
      pause = min(pause * 2, 20_000_000)
    } _: {
      if housekeeping.isFirstLock() { Self.removeAbandonedTemporaryFiles(of: file) }
      return try body(file)
    }
  }

  // MARK: Files

  /// `prefix + name of file + suffix` next to `file`, the name shortened (at a
  /// character boundary) so that the whole stays within 255 bytes of UTF-8.
  static func sibling(of file: URL, prefix: String, suffix: String) -> URL {
    let room = 255 - prefix.utf8.count - suffix.utf8.count
    var name = Substring(file.lastPathComponent)
    while name.utf8.count > room { name = name.dropLast() }
    return file.deletingLastPathComponent().appendingPathComponent(prefix + name + suffix, isDirectory: false)
  }

  /// The part every temporary file of `file` starts with: `.<name>.` (shortened as the
  /// temporary names are).
  private static func temporaryPrefix(of file: URL) -> String {
    let suffix = "." + String(repeating: "0", count: 8) + ".tmp"
    return String(sibling(of: file, prefix: ".", suffix: suffix).lastPathComponent.dropLast(suffix.count - 1))
  }

  /// A fresh temporary file next to `file`: `.<name>.<8 random letters or digits>.tmp`.
  private static func temporaryFile(of file: URL) -> URL {
    let alphabet = Array("0123456789abcdefghijklmnopqrstuvwxyz")
    let random = String((0..<8).map { _ in alphabet.randomElement()! })
    return file.deletingLastPathComponent()
      .appendingPathComponent(temporaryPrefix(of: file) + random + ".tmp", isDirectory: false)
  }

  /// Removes the temporary files of `file` that no writer will rename: those named as
  /// this storage names them (8 lowercase letters or digits), or as earlier versions did
  /// (a decimal number).
  private static func removeAbandonedTemporaryFiles(of file: URL) {
    let prefix = temporaryPrefix(of: file)
    let directory = file.deletingLastPathComponent()
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
    for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
      let middle = name.utf8.dropFirst(prefix.utf8.count).dropLast(4)
      let digits = !middle.isEmpty && middle.allSatisfy { (0x30...0x39).contains($0) }
      let random = middle.count == 8 && middle.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x7A).contains($0) }
      guard digits || random else { continue }
      try? FileManager.default.removeItem(at: directory.appendingPathComponent(name, isDirectory: false))
    }
  }

  /// The bytes of `file`, or `nil` if it doesn't exist.
  private static func contents(of file: URL) throws -> Data? {
    switch try FileSystemCalls.contents(ofFileAt: file.path) {
    case .bytes(let bytes): return Data(bytes)
    case .missing: return nil
    case .unavailable:  // where the C library can't (Windows): Foundation
      guard FileManager.default.fileExists(atPath: file.path) else { return nil }
      return try Data(contentsOf: file)
    }
  }

  /// Replaces `file` with `data`: temporary file, `fsync`, `rename`, `fsync` of the directory.
  private static func replace(_ file: URL, with data: Data) throws {
    let temporary = temporaryFile(of: file)
    let replaced = try data.withUnsafeBytes { bytes in
      try FileSystemCalls.replace(
        file.path, with: bytes, temporaryPath: temporary.path, directoryPath: file.deletingLastPathComponent().path)
    }
    // Where the C library can't (Windows): Foundation's atomic write.
    if !replaced { try data.write(to: file, options: .atomic) }
  }

  /// Moves `file` to `<name>.corrupt-<timestamp>` without overwriting anything.
  /// Returns `nil` if there is no file.
  private static func moveAside(_ file: URL, reason: String) throws -> QuarantineLocation? {
    guard FileManager.default.fileExists(atPath: file.path) else { return nil }
    let stamp = Int64(Date().timeIntervalSince1970 * 1000)
    for attempt in 0..<1000 {
      let suffix = attempt == 0 ? "\(stamp)" : "\(stamp)-\(attempt)"
      let destination = sibling(of: file, prefix: "", suffix: ".corrupt-\(suffix)")
      if FileManager.default.fileExists(atPath: destination.path) { continue }
      do {
        // `moveItem` refuses to replace an existing file.
        try FileManager.default.moveItem(at: file, to: destination)
        return .file(destination)
      } catch where FileManager.default.fileExists(atPath: destination.path) {
        continue  // lost a race for this name: try the next one
      }
    }
    throw POSIXFailure(operation: "quarantine (no free name)", path: file.path, code: EEXIST)
  }
}

/// Whether a storage value has taken its lock yet (its first locked call cleans up).
private final class Housekeeping: Sendable {
  private let locked = Locked(false)

  func isFirstLock() -> Bool {
    locked.withLock { done in
      defer { done = true }
      return !done
    }
  }
}
