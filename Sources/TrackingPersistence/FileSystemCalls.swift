// The C-library calls of JSONFileStorage: the lock file's `flock` and the durable
// replacement of the file (write, `fsync`, `rename`, `fsync` of the directory), and the
// error they throw. This file does not import Foundation (whose Linux build re-exports
// glibc), so that each system's branch below is type-checked against that system's
// declarations alone: Darwin by Scripts/check-apple-platforms.sh against
// TestSupport/AppleStubs/Darwin (Darwin is tested first so that the stub is the one
// imported there), glibc by the Linux build, musl, Android and Windows (CRT) by the
// same script against TestSupport/PlatformStubs. README's "Not verified by CI" lists
// them.
#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Android)
  import Android
#elseif canImport(CRT)
  import CRT
#endif

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

/// The system calls behind ``JSONFileStorage``'s lock and saves. Where the C library
/// has no `flock` (Windows), there is no lock and saving is left to the caller.
enum FileSystemCalls {
  /// Runs `body` holding an exclusive lock (`flock`) on the file at `path`, created if
  /// missing; closing the file releases the lock, also if the process dies. Without
  /// `flock`, runs `body` unlocked: one process at a time.
  static func withExclusiveLock<Result>(onFileAt path: String, _ body: () throws -> Result) throws -> Result {
    #if canImport(Darwin) || canImport(Glibc) || canImport(Musl) || canImport(Android)
      let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
      guard descriptor >= 0 else { throw POSIXFailure(operation: "open", path: path) }
      defer { close(descriptor) }  // closing releases the lock (also if the process dies)
      while flock(descriptor, LOCK_EX) != 0 {
        guard errno == EINTR else { throw POSIXFailure(operation: "flock", path: path) }
      }
      return try body()
    #else
      return try body()
    #endif
  }

  /// Replaces the file at `path` with `bytes` so that it is never torn: writes them to
  /// `temporaryPath` (a new file in the same directory), flushes it to the disk,
  /// renames it over `path` and flushes `directoryPath`. A failure before the rename
  /// leaves the previous file untouched. Returns `false`, having done nothing, where
  /// these calls don't exist (Windows): the caller saves another way.
  static func replace(
    _ path: String, with bytes: UnsafeRawBufferPointer, temporaryPath: String, directoryPath: String
  ) throws -> Bool {
    #if canImport(Darwin) || canImport(Glibc) || canImport(Musl) || canImport(Android)
      try writeAndSync(bytes, to: temporaryPath)
      guard rename(temporaryPath, path) == 0 else {
        let failure = POSIXFailure(operation: "rename", path: path)
        unlink(temporaryPath)
        throw failure
      }
      // The rename is durable once the directory entry is on disk. A failure here
      // doesn't tear the file, so it isn't reported.
      let directory = open(directoryPath, O_RDONLY)
      if directory >= 0 {
        _ = fsync(directory)
        close(directory)
      }
      return true
    #else
      return false
    #endif
  }

  #if canImport(Darwin) || canImport(Glibc) || canImport(Musl) || canImport(Android)
    private static func writeAndSync(_ buffer: UnsafeRawBufferPointer, to path: String) throws {
      let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
      guard descriptor >= 0 else { throw POSIXFailure(operation: "open", path: path) }
      var failure: POSIXFailure?
      var offset = 0
      while offset < buffer.count {
        let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          failure = POSIXFailure(operation: "write", path: path)
          break
        }
        offset += written
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
