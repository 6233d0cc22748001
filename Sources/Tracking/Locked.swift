import CTrackingSupport

/// A value guarded by a lock, for the runtime's own bookkeeping off the hot path.
/// (The Synchronization module's `Mutex` would do, but needs macOS 15 / iOS 18.)
package final class Locked<Value>: ManagedBuffer<Value, tracking_lock> {
  package static func make(_ value: Value) -> Locked<Value> {
    let buffer = Locked.create(minimumCapacity: 1) { _ in value }
    let locked = unsafeDowncast(buffer, to: Locked<Value>.self)
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

  package func withLock<R, Failure: Error>(_ body: (inout Value) throws(Failure) -> R) throws(Failure) -> R {
    let lock = withUnsafeMutablePointerToElements { $0 }
    tracking_lock_lock(lock)
    defer { tracking_lock_unlock(lock) }
    return try body(&header)
  }
}
