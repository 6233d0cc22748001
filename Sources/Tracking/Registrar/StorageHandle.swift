/// A reference to a registrar's storage that does not keep it alive and that the
/// storage clears as it is deallocated: what observed/unobserved hooks keep of the
/// storages they are on (``ObservationHook``), and a source of the reactive graph of its
/// hooked storage (``PropertySource/hooks``).
///
/// **Why not a weak reference.** A weak reference gives the object a side table, and
/// from then on every retain and release of it takes the runtime's slow path. A
/// storage is retained and released by every tracking scope that reads its object, so
/// that cost would fall on the hottest path. The handle takes the weak reference's
/// place and keeps the storage fast.
///
/// **Rule.** The storage's deinit calls `clear()` before it does anything else; `clear()`
/// waits for a call under way (the handle's lock), and none starts after it. So
/// ``withStorage(_:)`` only ever touches a storage whose deinit has not started, without
/// retaining it. Lock order: the handle's, then the storage's, then the graph lock.
///
/// One per storage, made on first use (see ``RegistrarStorage/handle``), kept in the
/// storage's extras.
final class StorageHandle: Sendable {
  private let storage: Locked<Unmanaged<RegistrarStorage>?>

  init(_ storage: RegistrarStorage) {
    self.storage = Locked(Unmanaged.passUnretained(storage))
  }

  /// Runs `body` with the storage, unless it was deallocated.
  func withStorage(_ body: (RegistrarStorage) -> Void) {
    storage.withLock { storage in
      storage?._withUnsafeGuaranteedRef { body($0) }
    }
  }

  /// Called by the storage's deinit, first: no call reaches the storage from now on.
  func clear() {
    storage.withLock { $0 = nil }
  }
}

extension RegistrarStorage {
  /// This storage's handle, made on first use.
  var handle: StorageHandle {
    withLock { state in
      let extras = state.extrasCreatingIfNeeded()
      if let handle = extras.handle { return handle }
      let handle = StorageHandle(self)
      extras.handle = handle
      return handle
    }
  }
}
