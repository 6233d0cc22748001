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
  func inotifyMonitor(
    url: URL, queue: DispatchQueue, onChange: @escaping @Sendable () -> Void
  ) -> StorageObservation? {
    let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
    guard descriptor >= 0 else { return nil }
    let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE)
    guard inotify_add_watch(descriptor, url.deletingLastPathComponent().path, mask) >= 0 else {
      close(descriptor)
      return nil
    }
    let name = Array(url.lastPathComponent.utf8)
    let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
    source.setEventHandler {
      if readInotifyEvents(descriptor).contains(name) { onChange() }
    }
    source.setCancelHandler { close(descriptor) }
    source.resume()
    let cancellable = UncheckedSendable(source)  // cancelling a dispatch source is thread-safe
    return StorageObservation { cancellable.value.cancel() }
  }

  /// Reads every pending event; returns the names they are about.
  private func readInotifyEvents(_ descriptor: Int32) -> [[UInt8]] {
    var names: [[UInt8]] = []
    var buffer = [UInt8](repeating: 0, count: 16 * 1024)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      guard count > 0 else { return names }  // EAGAIN: drained
      // Each event: wd (4), mask (4), cookie (4), len (4), then `len` bytes of
      // NUL-padded name. Read field by field: the buffer has no alignment guarantee.
      var offset = 0
      while offset + 16 <= count {
        let length = buffer.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)) }
        let nameBytes = buffer[(offset + 16)..<min(count, offset + 16 + length)]
        names.append(Array(nameBytes.prefix { $0 != 0 }))
        offset += 16 + length
      }
    }
  }
#endif
