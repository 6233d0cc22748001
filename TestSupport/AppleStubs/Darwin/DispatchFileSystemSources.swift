// Apple's Dispatch declares file-system event sources (kqueue's vnode events);
// swift-corelibs-libdispatch, the Dispatch module on Linux, leaves out the
// source type and its protocol (it has `DispatchSource.FileSystemEvent`). The check
// must use Linux's real Dispatch (Foundation depends on it), so this stub adds the
// part the package's Darwin code uses, as extensions, with the declarations of the
// Apple documentation pages named above each ("Dispatch: X" is
// https://developer.apple.com/documentation/dispatch/x). A file that uses them must
// import Darwin and Dispatch, as the package's Darwin file does. Nothing here runs.

import Dispatch

/// Dispatch: DispatchSourceFileSystemObject
/// (`protocol DispatchSourceFileSystemObject : DispatchSourceProtocol, Sendable`).
public protocol DispatchSourceFileSystemObject: DispatchSourceProtocol, Sendable {
  /// Dispatch: DispatchSourceFileSystemObject/handle.
  var handle: Int32 { get }
  /// Dispatch: DispatchSourceFileSystemObject/data.
  var data: DispatchSource.FileSystemEvent { get }
  /// Dispatch: DispatchSourceFileSystemObject/mask.
  var mask: DispatchSource.FileSystemEvent { get }
}

// `DispatchSource.FileSystemEvent` (Dispatch: DispatchSource/FileSystemEvent) is in
// Linux's Dispatch already, with the same flags.
extension DispatchSource {
  /// Dispatch: DispatchSource/makeFileSystemObjectSource(fileDescriptor:eventMask:queue:).
  public class func makeFileSystemObjectSource(
    fileDescriptor: Int32, eventMask: DispatchSource.FileSystemEvent, queue: DispatchQueue? = nil
  ) -> any DispatchSourceFileSystemObject {
    fatalError("stub")
  }
}
