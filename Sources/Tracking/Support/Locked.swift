import CTrackingSupport

/// A value guarded by a lock, for the runtime's own bookkeeping off the hot path.
/// (The Synchronization module's `Mutex` would do, but needs macOS 15 / iOS 18.)
///
/// Copies share the same value and lock. The value and lock live in one allocation.
///
/// `withLock` is inlinable so that it is specialized in the modules that use it
/// (continuous observation takes a lock or two per delivered value).
///
/// `@unchecked Sendable`: every access to the value goes through `withLock`.
@usableFromInline
package struct Locked<Value>: @unchecked Sendable {
  @usableFromInline let buffer: LockedBuffer<Value>

  /// Creates a lock guarding `value`, which is made in the buffer's memory: taken as a
  /// value, a node's state was copied into the buffer (an outlined copy of every field)
  /// and the original destroyed, some 290 instructions per observation or derived value
  /// made.
  package init(_ value: @autoclosure () -> Value) {
    buffer = LockedBuffer.make(value)
  }

  /// Runs `body` with exclusive access to the value.
  @inlinable
  package func withLock<R, Failure: Error>(_ body: (inout Value) throws(Failure) -> R) throws(Failure) -> R {
    try buffer.withLock(body)
  }
}

@usableFromInline
final class LockedBuffer<Value>: ManagedBuffer<Value, tracking_lock> {
  static func make(_ value: () -> Value) -> LockedBuffer<Value> {
    let buffer = LockedBuffer.create(minimumCapacity: 1) { _ in value() }
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

  /// The lock serializes access to the header, so it is reached through a pointer
  /// rather than `header`, whose accessors would add a run-time exclusivity check.
  @inlinable
  func withLock<R, Failure: Error>(_ body: (inout Value) throws(Failure) -> R) throws(Failure) -> R {
    try withUnsafeMutablePointers { (value, lock) throws(Failure) -> R in
      tracking_lock_lock(lock)
      defer { tracking_lock_unlock(lock) }
      return try body(&value.pointee)
    }
  }
}
