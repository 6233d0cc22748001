#if os(Linux)
  import Foundation
  import Glibc

  /// Reads a child's output pipe to its end on a thread of its own, with blocking reads,
  /// into an ``OutputLines``.
  ///
  /// Not `FileHandle.readabilityHandler`: that installs a libdispatch read source on the
  /// descriptor, and tearing such sources down while other tests do the same can corrupt
  /// libdispatch's epoll bookkeeping on Linux, which then crashes its manager thread in
  /// `_dispatch_event_loop_drain` (swift-corelibs-libdispatch issue 949; the full test
  /// run crashed there once). A blocking read registers nothing with libdispatch.
  /// (Unchecked: `finished` is behind its lock; the rest is immutable.)
  final class PipeReader: @unchecked Sendable {
    private let finished = NSLock()
    private var isDone = false

    /// Starts reading `handle` (the read end of a pipe whose write end the parent has
    /// closed, as `Process` does once the child runs) until its end.
    init(_ handle: FileHandle, into output: OutputLines) {
      let descriptor = handle.fileDescriptor
      let thread = Thread { [self] in
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
          let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
          if count > 0 {
            output.append(Data(buffer[0..<count]))
          } else if count < 0 && errno == EINTR {
            continue
          } else {
            break  // the end of the pipe, or an error: nothing more to read
          }
        }
        withExtendedLifetime(handle) {}
        finished.withLock { isDone = true }
      }
      thread.start()
    }

    /// Whether the pipe's end was read: every child that could write to it has exited.
    var isFinished: Bool { finished.withLock { isDone } }

    /// Waits, without blocking a thread of the shared pool, until the end was read; `false`
    /// if it was not within `seconds`.
    func waitForEnd(within seconds: Double) async throws -> Bool {
      let deadline = Date().addingTimeInterval(seconds)
      while !isFinished {
        guard Date() < deadline else { return false }
        try await Task.sleep(for: .milliseconds(1))
      }
      return true
    }
  }
#endif
