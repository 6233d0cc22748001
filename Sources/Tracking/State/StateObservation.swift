import CTrackingSupport

/// The shared part of a ``StateRegistrar``: an object (so that it can be a state value's
/// identity) that owns the observers of one state value's fields and remembers which
/// ``StateStore`` the value belongs to. Field changes are reported with this object as
/// the event's subject and no meaningful key path.
///
/// **Layout.** It is the registrar storage of the value's fields itself, made with a
/// second tail element whose first word is the owner word (a stable address for the C
/// atomics). So a state value's identity, its observers and its owner are one
/// allocation, as a tracked object's registrar storage is, and delivering a change to
/// a field loads no object on the way to its observers.
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
typealias StateObservation = RegistrarStorage

// The subject of a state value's events and reads (and the type they name).
extension RegistrarStorage: Trackable {}

extension StateObservation {
  // Not `Sendable` (the standard library makes every `ManagedBuffer` unavailable for
  // it), but safe to share: a registrar storage is thread-safe, and the owner word is
  // only touched through C atomics. ``StateRegistrar`` states it.

  /// A new observation object: a new identity, no observers, no owner.
  static func makeForState() -> StateObservation {
    let observation = RegistrarStorage.make(tailCapacity: 2)
    tracking_atomic_init(observation.ownerWord, 0)
    return observation
  }

  /// The owner word: the first word of the second tail element, which a state value's
  /// storage is made with (``makeForState()``).
  private var ownerWord: UnsafeMutablePointer<tracking_atomic_word> {
    withUnsafeMutablePointerToElements { ($0 + 1).pointer(to: \.readMask)! }
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
  var registrar: TrackingRegistrar { TrackingRegistrar(storage: self) }

  /// Makes `owner` the store of this value if no store is yet. Returns whether the value
  /// belongs to `owner` now (`false`: another store claimed it first).
  func claim(for owner: StateOwner) -> Bool {
    let word = ownerWord
    let current = tracking_atomic_load_acquire(word)
    if current == owner.serial { return true }
    if current != 0 { return false }
    return tracking_atomic_cas(word, 0, owner.serial) || tracking_atomic_load_acquire(word) == owner.serial
  }
}
