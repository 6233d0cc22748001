import Dispatch
import Foundation
import Tracking

/// How a ``JSONFileStorage`` notices that another process changed its file.
public struct FileChangeDetection: Sendable, Equatable, CustomStringConvertible {
  enum Mode: Sendable, Equatable {
    case events, polling
  }

  let mode: Mode
  /// The polling interval in nanoseconds: for ``polling(seconds:)``, and for
  /// ``events`` where the system offers no events.
  let pollingNanoseconds: UInt64

  /// The system's file events — inotify on Linux, a dispatch source (kqueue) on Apple
  /// systems — or, where there are none (or they can't be set up), polling once a second.
  public static let events = FileChangeDetection(mode: .events, pollingNanoseconds: 1_000_000_000)

  /// Looks at the file's size, modification time and identity every `interval`.
  ///
  /// Works on every file system (network ones included, where events may not come), at
  /// the cost of a `stat` per interval. A change that keeps the size within one tick
  /// of the file system's clock and rewrites the file in place can go unnoticed;
  /// ``JSONFileStorage``'s own saves replace the file, so they are always seen.
  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  public static func polling(every interval: Duration) -> FileChangeDetection {
    FileChangeDetection(mode: .polling, pollingNanoseconds: max(1_000_000, interval.nanoseconds))
  }

  /// ``polling(every:)`` with the interval in seconds, for systems without `Duration`.
  public static func polling(seconds: Double) -> FileChangeDetection {
    precondition(seconds > 0 && seconds.isFinite, "a polling interval is a positive number of seconds")
    return FileChangeDetection(mode: .polling, pollingNanoseconds: max(1_000_000, UInt64(seconds * 1e9)))
  }

  /// `events` or `polling every … s`, for logs.
  public var description: String {
    mode == .events ? "events" : "polling every \(Double(pollingNanoseconds) / 1e9) s"
  }
}

/// Starts watching the file at `url` for changes made by anyone; `onChange` runs on a
/// background queue after each (possibly for several at once, possibly spuriously).
///
/// The system's events come from DispatchSourceFileMonitor.swift (Apple systems) and
/// InotifyFileMonitor.swift (Linux); polling, below, serves where there are none or
/// they can't be set up.
func monitorFile(
  at url: URL, detection: FileChangeDetection, onChange: @escaping @Sendable () -> Void
) -> StorageObservation {
  let queue = DispatchQueue(label: "TrackingPersistence.file-monitor")
  if detection.mode == .events {
    // Darwin is tested first so that Scripts/check-apple-platforms.sh, which makes a
    // stub Darwin module visible on Linux, compiles this call.
    #if canImport(Darwin)
      if let observation = DispatchSourceFileMonitor.start(
        directoryPath: url.deletingLastPathComponent().path, filePath: url.path, queue: queue, onChange: onChange)
      {
        return observation
      }
    #elseif os(Linux)
      if let observation = inotifyMonitor(url: url, queue: queue, onChange: onChange) { return observation }
    #endif
  }
  return pollingMonitor(url: url, interval: detection.pollingNanoseconds, queue: queue, onChange: onChange)
}

// MARK: Polling

/// What polling compares: whether the file exists, and its identity, size and time.
private struct FileSignature: Equatable {
  var exists = false
  var identity: UInt64 = 0
  var size: UInt64 = 0
  var modified: Date?

  init(url: URL) {
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path) else { return }
    exists = true
    identity = (attributes[.systemFileNumber] as? NSNumber)?.uint64Value ?? 0
    size = (attributes[.size] as? NSNumber)?.uint64Value ?? 0
    modified = attributes[.modificationDate] as? Date
  }
}

private func pollingMonitor(
  url: URL, interval: UInt64, queue: DispatchQueue, onChange: @escaping @Sendable () -> Void
) -> StorageObservation {
  let timer = DispatchSource.makeTimerSource(queue: queue)
  // Only touched on `queue`, by the timer's handler.
  nonisolated(unsafe) var last = FileSignature(url: url)
  timer.setEventHandler {
    let current = FileSignature(url: url)
    guard current != last else { return }
    last = current
    onChange()
  }
  timer.schedule(deadline: .now() + .nanoseconds(Int(interval)), repeating: .nanoseconds(Int(interval)))
  timer.resume()
  let cancellable = UncheckedSendable(timer)  // cancelling a dispatch source is thread-safe
  return StorageObservation { cancellable.value.cancel() }
}
