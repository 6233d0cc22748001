import CTrackingSupport

/// A value guarded by a lock, for the runtime's own bookkeeping off the hot path.
/// (The Synchronization module's `Mutex` would do, but needs macOS 15 / iOS 18.)
///
/// Copies share the same value and lock. The value and lock live in one allocation.
package struct Locked<Value>: @unchecked Sendable {
  private let buffer: LockedBuffer<Value>

  /// Creates a lock guarding `value`.
  package init(_ value: Value) {
    buffer = LockedBuffer.make(value)
  }

  /// The same as `init(_:)`, reading better at call sites that keep the result.
  package static func make(_ value: Value) -> Locked<Value> { Locked(value) }

  /// Runs `body` with exclusive access to the value.
  package func withLock<R, Failure: Error>(_ body: (inout Value) throws(Failure) -> R) throws(Failure) -> R {
    try buffer.withLock(body)
  }
}

private final class LockedBuffer<Value>: ManagedBuffer<Value, tracking_lock> {
  static func make(_ value: Value) -> LockedBuffer<Value> {
    let buffer = LockedBuffer.create(minimumCapacity: 1) { _ in value }
    let locked = unsafeDowncast(buffer, to: LockedBuffer<Value>.self)
    locked.withUnsafeMutablePointerToElements { lock in
      lock.initialize(to: tracking_lock())
      tracking_lock_init(lock)
    }
    return locked
  }

  deinit {
    withUnsafeMutablePointerToElements { lock in
      tracking_lock_destroy(lock)
      _ = lock.deinitialize(count: 1)
    }
  }

  func withLock<R, Failure: Error>(_ body: (inout Value) throws(Failure) -> R) throws(Failure) -> R {
    let lock = withUnsafeMutablePointerToElements { $0 }
    tracking_lock_lock(lock)
    defer { tracking_lock_unlock(lock) }
    return try body(&header)
  }
}
