#if os(Linux)
  import Foundation
  import Glibc
  import Testing

  /// This test binary, started again to run one test as a separate process (the way
  /// the multi-process tests get real concurrent writers).
  /// (Unchecked: its members are immutable after `init`, and used only through
  /// `Process`'s and `FileHandle`'s own thread-safe methods and `kill(2)`.)
  final class ChildProcess: @unchecked Sendable {
    let process = Process()
    let output = OutputLines()
    private let pipe = Pipe()
    private let reader: PipeReader

    /// Starts the test binary running only the test `entry`, with `variable` set to
    /// `value`; its standard error joins ``output`` if `capturingStandardError`.
    init(entry: String, variable: String, value: String, capturingStandardError: Bool = false) throws {
      process.executableURL = URL(
        fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      process.arguments = ["--testing-library", "swift-testing", "--filter", entry]
      var environment = ProcessInfo.processInfo.environment
      environment[variable] = value
      process.environment = environment
      process.standardOutput = pipe
      process.standardError = capturingStandardError ? pipe : FileHandle.nullDevice
      try process.run()
      reader = PipeReader(pipe.fileHandleForReading, into: output)
    }

    var isRunning: Bool { process.isRunning }

    /// Waits, without blocking a thread of the shared pool, until the child exits and
    /// everything it wrote is in ``output``.
    func waitForExit(within seconds: Double) async throws -> Bool {
      let deadline = Date().addingTimeInterval(seconds)
      while process.isRunning {
        guard Date() < deadline else { return false }
        try await Task.sleep(for: .milliseconds(5))
      }
      return try await reader.waitForEnd(within: max(deadline.timeIntervalSinceNow, 1))
    }

    /// Ends the child now (also when an expectation throws).
    func kill() {
      if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
    }

    deinit { kill() }
  }

  /// The lines a child wrote, collected from its output across threads.
  final class OutputLines: @unchecked Sendable {
    private let lock = NSLock()
    private var buffer = Data()

    func append(_ data: Data) { lock.withLock { buffer.append(data) } }

    /// The lines starting with `prefix` and a space, without it.
    func values(_ prefix: String) -> [String] {
      let text = lock.withLock { String(decoding: buffer, as: UTF8.self) }
      return text.split(separator: "\n").compactMap { line in
        line.hasPrefix(prefix + " ") ? String(line.dropFirst(prefix.count + 1)) : nil
      }
    }

    var text: String { lock.withLock { String(decoding: buffer, as: UTF8.self) } }
  }

  /// Writes `<prefix> <value>` as one line to standard output at once (unbuffered), for
  /// the parent to read.
  func tell(_ prefix: String, _ value: String) {
    let line = Array("\(prefix) \(value)\n".utf8)
    _ = line.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
  }
#endif
