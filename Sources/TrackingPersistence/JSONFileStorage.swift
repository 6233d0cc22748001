import Foundation

/// Stores a persisted model's value in one file: the default backend, with no setup.
///
/// Every save writes a temporary file in the same directory (`.<name>.<random>.tmp`,
/// unique to the save, so saves that don't take the lock can't collide), flushes
/// it to the disk (`fsync`), renames it over the file and flushes the directory, so
/// the file is never torn: after a crash or power loss it holds either the new value
/// or the previous one. A failed save leaves the previous file untouched.
///
/// A value that can't be read is moved aside to `<name>.corrupt-<milliseconds since
/// 1970>` next to the file; earlier moved-aside files are never overwritten.
///
/// **Shared by processes.** Several processes (or several ``Persisted`` values) may use
/// one file: each ``update(_:)`` holds an exclusive lock (`flock`) on the lock file
/// `.<name>.lock` next to the file while it reads, merges and replaces the value, so
/// no writer's change is lost. Changes made by others — a process, or a person with
/// an editor — are seen through ``changeDetection``. (On Windows there is no lock:
/// one process at a time.)
public struct JSONFileStorage: SharedPersistenceStorage {
  /// The file holding the value.
  public let url: URL
  /// How changes made by others are noticed.
  public let changeDetection: FileChangeDetection

  /// A storage that keeps its value in the file at `url`. The directory must exist.
  public init(url: URL, changeDetection: FileChangeDetection = .events) {
    self.url = url
    self.changeDetection = changeDetection
  }

  /// The lock file that serializes updates: `.<name>.lock` next to the file.
  public var lockURL: URL {
    url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).lock")
  }

  /// Reads, decides and writes under the lock file's exclusive lock.
  public func update(_ decide: (Data?) throws -> StoredValueChange) throws -> StoredValueUpdate {
    try withExclusiveLock {
      let stored = try load()
      switch try decide(stored) {
      case .keep:
        return StoredValueUpdate(stored: stored)
      case .replace(let data):
        try save(data)
        return StoredValueUpdate(stored: data)
      case .moveAside(let reason, let replacement):
        let location = try quarantine(reason: reason)
        if let replacement { try save(replacement) }
        return StoredValueUpdate(stored: replacement, movedTo: location)
      }
    }
  }

  /// Reports changes of the file, as ``changeDetection`` says.
  public func observeChanges(_ onChange: @escaping @Sendable () -> Void) throws -> StorageObservation {
    monitorFile(at: url, detection: changeDetection, onChange: onChange)
  }

  private func withExclusiveLock<Result>(_ body: () throws -> Result) throws -> Result {
    try FileSystemCalls.withExclusiveLock(onFileAt: lockURL.path, body)
  }

  /// The file's bytes, or `nil` if the file doesn't exist.
  public func load() throws -> Data? {
    do {
      return try Data(contentsOf: url)
    } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
      return nil
    } catch {
      if !FileManager.default.fileExists(atPath: url.path) { return nil }
      throw error
    }
  }

  /// Replaces the file with `data`: temporary file, `fsync`, `rename`, `fsync` of the directory.
  public func save(_ data: Data) throws {
    let directory = url.deletingLastPathComponent()
    let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(UInt64.random(in: 0...UInt64.max)).tmp")
    let replaced = try data.withUnsafeBytes { bytes in
      try FileSystemCalls.replace(url.path, with: bytes, temporaryPath: temporary.path, directoryPath: directory.path)
    }
    // Where the C library can't (Windows): Foundation's atomic write.
    if !replaced { try data.write(to: url, options: .atomic) }
  }

  /// Moves the file to `<name>.corrupt-<timestamp>` without overwriting anything.
  /// Returns `nil` if there is no file.
  public func quarantine(reason: String) throws -> QuarantineLocation? {
    guard FileManager.default.fileExists(atPath: url.path) else { return nil }
    let stamp = Int64(Date().timeIntervalSince1970 * 1000)
    for attempt in 0..<1000 {
      let suffix = attempt == 0 ? "\(stamp)" : "\(stamp)-\(attempt)"
      let destination = url.deletingLastPathComponent()
        .appendingPathComponent("\(url.lastPathComponent).corrupt-\(suffix)")
      if FileManager.default.fileExists(atPath: destination.path) { continue }
      do {
        // `moveItem` refuses to replace an existing file.
        try FileManager.default.moveItem(at: url, to: destination)
        return .file(destination)
      } catch where FileManager.default.fileExists(atPath: destination.path) {
        continue  // lost a race for this name: try the next one
      }
    }
    throw POSIXFailure(operation: "quarantine (no free name)", path: url.path, code: EEXIST)
  }

  /// The bytes of a moved-aside file of this storage.
  public func quarantinedData(at location: QuarantineLocation) throws -> Data? {
    guard case .file(let file) = location,
      file.deletingLastPathComponent().standardizedFileURL
        == url.deletingLastPathComponent().standardizedFileURL,
      FileManager.default.fileExists(atPath: file.path)
    else { return nil }
    return try Data(contentsOf: file)
  }

}
