import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Stores a persisted model's value in one file: the default backend, with no setup.
///
/// Every save writes a temporary file in the same directory (`.<name>.tmp`), flushes
/// it to the disk (`fsync`), renames it over the file and flushes the directory, so
/// the file is never torn: after a crash or power loss it holds either the new value
/// or the previous one. A failed save leaves the previous file untouched.
///
/// A value that can't be read is moved aside to `<name>.corrupt-<milliseconds since
/// 1970>` next to the file; earlier moved-aside files are never overwritten.
///
/// One process at a time should save to a given file.
public struct JSONFileStorage: PersistenceStorage {
  /// The file holding the value.
  public let url: URL

  /// A storage that keeps its value in the file at `url`. The directory must exist.
  public init(url: URL) {
    self.url = url
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
    #if os(Windows)
      try data.write(to: url, options: .atomic)
    #else
      let temporary = url.deletingLastPathComponent()
        .appendingPathComponent(".\(url.lastPathComponent).tmp")
      try writeAndSync(data, to: temporary.path)
      guard rename(temporary.path, url.path) == 0 else {
        let failure = POSIXFailure(operation: "rename", path: url.path)
        unlink(temporary.path)
        throw failure
      }
      // The rename is durable once the directory entry is on disk. A failure here
      // doesn't tear the file, so it isn't reported.
      let directory = open(url.deletingLastPathComponent().path, O_RDONLY)
      if directory >= 0 {
        _ = fsync(directory)
        close(directory)
      }
    #endif
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

  #if !os(Windows)
    private func writeAndSync(_ data: Data, to path: String) throws {
      let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
      guard descriptor >= 0 else { throw POSIXFailure(operation: "open", path: path) }
      var failure: POSIXFailure?
      data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
        var offset = 0
        while offset < buffer.count {
          let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
          if written < 0 {
            if errno == EINTR { continue }
            failure = POSIXFailure(operation: "write", path: path)
            return
          }
          offset += written
        }
      }
      if failure == nil, fsync(descriptor) != 0 {
        failure = POSIXFailure(operation: "fsync", path: path)
      }
      close(descriptor)
      if let failure {
        unlink(path)
        throw failure
      }
    }
  #endif
}

/// A failed system call of ``JSONFileStorage``: which call, on which path, and `errno`.
public struct POSIXFailure: Error, CustomStringConvertible {
  /// The call that failed, such as `open` or `rename`.
  public let operation: String
  /// The path it was called on.
  public let path: String
  /// The `errno` value it set.
  public let code: Int32

  init(operation: String, path: String, code: Int32 = errno) {
    self.operation = operation
    self.path = path
    self.code = code
  }

  /// The call, the path and the system's message for the error.
  public var description: String {
    "\(operation) \(path): \(String(cString: strerror(code))) (errno \(code))"
  }
}
