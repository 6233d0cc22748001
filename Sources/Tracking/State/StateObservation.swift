import CTrackingSupport

/// The shared part of a ``StateRegistrar``: an object (so that it can be a state value's
/// identity) that owns the observers of one state value's fields and remembers which
/// ``StateStore`` the value belongs to. Field changes are reported with this object as
/// the event's subject and no meaningful key path.
///
/// **Layout.** One allocation: the registrar is the buffer's header, the owner word its
/// tail element, so that the word has a stable address for the C atomics.
///
/// **Owner.** The observers of a value belong to at most one store, so that a change a
/// store makes never reaches the readers of another store that holds a copy of the
/// value. The word holds 0 until a store claims the value (a compare-and-swap to the
/// store's serial, ``StateOwner``); once set it never changes. A store that is handed a
/// value another store claimed gives its copy a new identity instead
/// (``StateRegistrar/reidentify(for:)``). Nothing else is published through the word,
/// and a nonzero value is final, so the orders of the C helpers (acquire loads,
/// acq-rel exchange) are more than enough.
@usableFromInline
final class StateObservation: ManagedBuffer<TrackingRegistrar, tracking_atomic_word>, Trackable {
  // Not `Sendable` (the standard library makes every `ManagedBuffer` unavailable for
  // it), but safe to share: the header is a registrar, set once and thread-safe itself,
  // and the tail word is only touched through C atomics. ``StateRegistrar`` states it.

  /// A new observation object: a new identity, no observers, no owner.
  static func make() -> StateObservation {
    let buffer = StateObservation.create(minimumCapacity: 1) { _ in TrackingRegistrar() }
    // `create` returns the dynamic subclass typed as its base class.
    let observation = unsafeDowncast(buffer, to: StateObservation.self)
    observation.withUnsafeMutablePointerToElements { tracking_atomic_init($0, 0) }
    return observation
  }

  /// The number under which a ``StateStore`` records reads of its root value (its
  /// `state`, and every member read through it) on the root's observation, so that a
  /// read of `store.count` records one object, not the store and the root. The last
  /// number a property set holds without allocating: in a struct of 64 fields or more,
  /// field 63 shares it (its readers and the root's are then notified together, never
  /// less). An observer that watches it and fields 0–30 of one value needs no entry in
  /// the value's registrar (see `TrackingObserver.sharedBits`).
  @usableFromInline
  static let rootID = 63

  /// The observers of the value's fields.
  @usableFromInline
  var registrar: TrackingRegistrar {
    withUnsafeMutablePointerToHeader { $0.pointee }
  }

  /// Calls `body` with the registrar's storage, borrowed: no retain, as this object,
  /// which the caller holds, owns it. (The header, a ``TrackingRegistrar``, is one
  /// reference, its storage: it is read as such, which a test checks.)
  @inlinable @inline(__always)
  func withStorage<Result>(_ body: (RegistrarStorage) -> Result) -> Result {
    let storage = withUnsafeMutablePointerToHeader {
      UnsafeRawPointer($0).load(as: Unmanaged<RegistrarStorage>.self)
    }
    return storage._withUnsafeGuaranteedRef(body)
  }

  /// Makes `owner` the store of this value if no store is yet. Returns whether the value
  /// belongs to `owner` now (`false`: another store claimed it first).
  func claim(for owner: StateOwner) -> Bool {
    withUnsafeMutablePointerToElements { word in
      let current = tracking_atomic_load_acquire(word)
      if current == owner.serial { return true }
      if current != 0 { return false }
      return tracking_atomic_cas(word, 0, owner.serial) || tracking_atomic_load_acquire(word) == owner.serial
    }
  }
}
