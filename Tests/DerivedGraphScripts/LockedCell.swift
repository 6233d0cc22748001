import Foundation
import Tracking

/// A hand-made tracked value whose storage is locked, so that several threads may
/// read and write it (a `@Trackable` class's storage is not synchronized).
public final class LockedCell: Trackable, @unchecked Sendable {
  private let registrar = TrackingRegistrar()
  private let lock = NSLock()
  private var storage = 0

  /// A cell holding 0.
  public init() {}

  /// The value, read as a tracked property is (recorded in the current scope).
  public var value: Int {
    get {
      registrar.access(self, property: 0, keyPath: \.value)
      return lock.withLock { storage }
    }
    set {
      registrar.withMutation(of: self, property: 0, keyPath: \.value) { lock.withLock { storage = newValue } }
    }
  }

  /// The value, read without recording a dependency.
  public var untrackedValue: Int { lock.withLock { storage } }
}
