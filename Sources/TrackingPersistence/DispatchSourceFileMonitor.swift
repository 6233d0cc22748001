// Noticing changes of a file on Apple systems, with dispatch sources (kqueue): the
// Darwin part of FileChangeMonitor.swift. It imports Darwin and Dispatch, not
// Foundation (whose Linux build re-exports glibc), so that
// Scripts/check-apple-platforms.sh type-checks it against the Darwin stub alone
// (TestSupport/AppleStubs/Darwin); paths therefore come in as strings.
#if canImport(Darwin)
  import Darwin
  import Dispatch
  import Tracking

  /// Watches the directory (for the file being replaced, created or deleted) and the
  /// current file (for writes in place), re-arming the file's source whenever the
  /// directory changes, since every save replaces the file.
  final class DispatchSourceFileMonitor: @unchecked Sendable {
    // Mutable state is only touched on `queue`.
    private let filePath: String
    private let queue: DispatchQueue
    private let onChange: @Sendable () -> Void
    private var directorySource: (any DispatchSourceFileSystemObject)?
    private var fileSource: (any DispatchSourceFileSystemObject)?

    private init(filePath: String, queue: DispatchQueue, onChange: @escaping @Sendable () -> Void) {
      self.filePath = filePath
      self.queue = queue
      self.onChange = onChange
    }

    /// Starts watching the file at `filePath` in the directory at `directoryPath`;
    /// `nil` if the directory can't be opened.
    static func start(
      directoryPath: String, filePath: String, queue: DispatchQueue, onChange: @escaping @Sendable () -> Void
    ) -> StorageObservation? {
      let monitor = DispatchSourceFileMonitor(filePath: filePath, queue: queue, onChange: onChange)
      let directory = open(directoryPath, O_EVTONLY)
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

    /// Watches the file now at `filePath` (a new one after every save). Runs on `queue`.
    private func armFileSource() {
      fileSource?.cancel()
      fileSource = nil
      let file = open(filePath, O_EVTONLY)
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
