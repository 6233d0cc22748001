// Noticing changes of a file on Linux, with inotify: the Linux part of
// FileChangeMonitor.swift. The C library comes through Foundation, which re-exports
// glibc (or musl, with the static Linux SDK).
import Dispatch
import Foundation
import Tracking

#if os(Linux)
  /// Watches the file's directory (the file itself is replaced on every save, so a
  /// watch on it would end at the first save) for the file being written and closed,
  /// renamed into place, created or deleted. `nil` if inotify can't be set up.
  ///
  /// Nothing is missed silently: an event the reader can't attribute to a file (the
  /// kernel's queue overflowed and dropped events, or an event without a name) reports
  /// a change, so the file is read again; and when the watch ends (the directory was
  /// deleted, moved or unmounted) a change is reported and polling takes over.
  func inotifyMonitor(
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
