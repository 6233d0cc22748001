import Dispatch
import Foundation
import Tracking

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

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
func monitorFile(
  at url: URL, detection: FileChangeDetection, onChange: @escaping @Sendable () -> Void
) -> StorageObservation {
  let queue = DispatchQueue(label: "TrackingPersistence.file-monitor")
  if detection.mode == .events {
    #if os(Linux)
      if let observation = inotifyMonitor(
        url: url, queue: queue, pollingInterval: detection.pollingNanoseconds, onChange: onChange)
      {
        return observation
      }
    #elseif canImport(Darwin)
      if let observation = DispatchSourceFileMonitor.start(url: url, queue: queue, onChange: onChange) {
        return observation
      }
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

// MARK: inotify (Linux)

#if os(Linux)
  /// Watches the file's directory (the file itself is replaced on every save, so a
  /// watch on it would end at the first save) for the file being written and closed,
  /// renamed into place, created or deleted. `nil` if inotify can't be set up.
  ///
  /// Nothing is missed silently: an event the reader can't attribute to a file (the
  /// kernel's queue overflowed and dropped events, or an event without a name) reports
  /// a change, so the file is read again; and when the watch ends (the directory was
  /// deleted, moved or unmounted) a change is reported and polling takes over.
  private func inotifyMonitor(
    url: URL, queue: DispatchQueue, pollingInterval: UInt64, onChange: @escaping @Sendable () -> Void
  ) -> StorageObservation? {
    let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
    guard descriptor >= 0 else { return nil }
    let mask = UInt32(
      IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF)
    guard inotify_add_watch(descriptor, url.deletingLastPathComponent().path, mask) >= 0 else {
      close(descriptor)
      return nil
    }
    let name = Array(url.lastPathComponent.utf8)
    let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
    let fallback = FallbackMonitor()
    let cancellable = UncheckedSendable(source)  // cancelling a dispatch source is thread-safe
    source.setEventHandler {
      let news = readInotifyEvents(descriptor, about: name)
      if news.watchEnded {
        cancellable.value.cancel()
        fallback.start { pollingMonitor(url: url, interval: pollingInterval, queue: queue, onChange: onChange) }
      }
      if news.fileChanged || news.unattributed || news.watchEnded { onChange() }
    }
    source.setCancelHandler { close(descriptor) }
    source.resume()
    return StorageObservation {
      cancellable.value.cancel()
      fallback.cancel()
    }
  }

  /// The polling monitor that replaces an inotify watch that ended, if one did.
  private final class FallbackMonitor: Sendable {
    private let state = Locked<(observation: StorageObservation?, cancelled: Bool)>((nil, false))

    func start(_ make: () -> StorageObservation) {
      state.withLock { state in
        guard !state.cancelled, state.observation == nil else { return }
        state.observation = make()
      }
    }

    func cancel() {
      let observation = state.withLock { state -> StorageObservation? in
        state.cancelled = true
        defer { state.observation = nil }
        return state.observation
      }
      observation?.cancel()
    }
  }

  /// What a batch of inotify events says about the watched file.
  struct InotifyNews: Equatable {
    /// An event named the file.
    var fileChanged = false
    /// An event could not be attributed to any file: the queue overflowed (events were
    /// dropped), an event had no name, or reading failed.
    var unattributed = false
    /// The watch ended: the directory was deleted, moved or unmounted.
    var watchEnded = false
  }

  /// Reads every pending event; says whether any concerns the file named `name`.
  private func readInotifyEvents(_ descriptor: Int32, about name: [UInt8]) -> InotifyNews {
    var news = InotifyNews()
    var buffer = [UInt8](repeating: 0, count: 16 * 1024)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        let code = errno
        if code == EINTR { continue }
        if code != EAGAIN { news.unattributed = true }  // EAGAIN: drained
        return news
      }
      if count == 0 { return news }
      news.merge(inotifyNews(in: buffer[0..<count], about: name))
    }
  }

  /// What the events in `bytes` (as `read(2)` returns them from an inotify descriptor)
  /// say about the file named `name`.
  func inotifyNews(in bytes: ArraySlice<UInt8>, about name: [UInt8]) -> InotifyNews {
    var news = InotifyNews()
    let ended = UInt32(IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF | IN_UNMOUNT)
    // Each event: wd (4), mask (4), cookie (4), len (4), then `len` bytes of
    // NUL-padded name. Read field by field: the buffer has no alignment guarantee.
    var offset = bytes.startIndex
    while offset + 16 <= bytes.endIndex {
      let (mask, length) = bytes.withUnsafeBytes { raw in
        let base = offset - bytes.startIndex
        return (
          raw.loadUnaligned(fromByteOffset: base + 4, as: UInt32.self),
          Int(raw.loadUnaligned(fromByteOffset: base + 12, as: UInt32.self))
        )
      }
      let nameBytes = bytes[(offset + 16)..<min(bytes.endIndex, offset + 16 + length)].prefix { $0 != 0 }
      if mask & ended != 0 {
        news.watchEnded = true
      } else if mask & UInt32(IN_Q_OVERFLOW) != 0 || nameBytes.isEmpty {
        news.unattributed = true
      } else if nameBytes.elementsEqual(name) {
        news.fileChanged = true
      }
      offset += 16 + length
    }
    return news
  }

  extension InotifyNews {
    mutating func merge(_ other: InotifyNews) {
      fileChanged = fileChanged || other.fileChanged
      unattributed = unattributed || other.unattributed
      watchEnded = watchEnded || other.watchEnded
    }
  }
#endif

// MARK: Dispatch sources (Apple systems)

#if canImport(Darwin)
  /// Watches the directory (for the file being replaced, created or deleted) and the
  /// current file (for writes in place), re-arming the file's source whenever the
  /// directory changes, since every save replaces the file.
  private final class DispatchSourceFileMonitor: @unchecked Sendable {
    // Mutable state is only touched on `queue`.
    private let url: URL
    private let queue: DispatchQueue
    private let onChange: @Sendable () -> Void
    private var directorySource: (any DispatchSourceFileSystemObject)?
    private var fileSource: (any DispatchSourceFileSystemObject)?

    private init(url: URL, queue: DispatchQueue, onChange: @escaping @Sendable () -> Void) {
      self.url = url
      self.queue = queue
      self.onChange = onChange
    }

    static func start(url: URL, queue: DispatchQueue, onChange: @escaping @Sendable () -> Void) -> StorageObservation? {
      let monitor = DispatchSourceFileMonitor(url: url, queue: queue, onChange: onChange)
      let directory = open(url.deletingLastPathComponent().path, O_EVTONLY)
      guard directory >= 0 else { return nil }
      let source = DispatchSource.makeFileSystemObjectSource(fileDescriptor: directory, eventMask: .write, queue: queue)
      source.setEventHandler { [weak monitor] in
        monitor?.armFileSource()
        monitor?.onChange()
      }
      source.setCancelHandler { close(directory) }
      queue.sync {
        monitor.directorySource = source
        monitor.armFileSource()
      }
      source.resume()
      return StorageObservation { queue.async { monitor.cancel() } }
    }

    /// Watches the file now at `url` (a new one after every save). Runs on `queue`.
    private func armFileSource() {
      fileSource?.cancel()
      fileSource = nil
      let file = open(url.path, O_EVTONLY)
      guard file >= 0 else { return }  // no file yet: the directory source sees it arrive
      let source = DispatchSource.makeFileSystemObjectSource(
        fileDescriptor: file, eventMask: [.write, .extend, .delete, .rename], queue: queue)
      let events = UncheckedSendable(source)  // read on `queue` only, in its own handler
      source.setEventHandler { [weak self] in
        guard let self else { return }
        if !events.value.data.isDisjoint(with: [.delete, .rename]) { armFileSource() }
        onChange()
      }
      source.setCancelHandler { close(file) }
      source.resume()
      fileSource = source
    }

    private func cancel() {
      fileSource?.cancel()
      directorySource?.cancel()
      fileSource = nil
      directorySource = nil
    }
  }
#endif
