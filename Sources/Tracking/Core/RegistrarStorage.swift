import CTrackingSupport

/// The shared, lock-protected part of a ``TrackingRegistrar``: the observers installed
/// on one object and which of its properties each one watches.
///
/// Layout: one allocation per object. The Swift state is the buffer's header; the
/// lock and the observer count are its tail element, so they have a stable address
/// and can be used from C without Swift's exclusivity checks.
///
/// Observers are kept in an array in installation order, each with a ``PropertySet``
/// bitmask, rather than in a dictionary keyed by `KeyPath` as Apple does. A word-sized
/// *observed mask* (the union of the watched properties, with the top bit standing for
/// every property numbered too high to have a bit) is kept next to the lock: a
/// mutation of a property nobody watches reads that word and returns, without the
/// lock. A mutation of a watched property takes the lock and matches entries with
/// one AND each, no hashing. Observers that have finished elsewhere (fired through
/// another object, or cancelled) are swept out when a property they watch changes,
/// and before an install once the array has doubled since the last sweep, so memory
/// stays proportional to the pending observers.
@usableFromInline
final class RegistrarStorage: ManagedBuffer<RegistrarStorage.State, tracking_registrar_sync> {
  @usableFromInline
  struct Entry {
    let observer: TrackingObserver
    let kind: TrackingObserver.Kind
    let properties: PropertySet
  }

  @usableFromInline
  struct State {
    var entries: [Entry] = []
    /// The union of the pending entries' properties, as published in `observedMask`.
    var mask = 0
    /// Install sweeps finished entries when `entries.count` reaches this.
    var sweepThreshold = 8
    /// What few objects need, allocated on first use so that every other object
    /// stays small.
    var extras: Extras?
  }

  /// Rarely used per-object state.
  final class Extras {
    /// Identifiers handed out to key paths that the macro did not number.
    var dynamicIDs: [AnyKeyPath: Int] = [:]
    /// The object that relays to Apple's registrar, made on first use (interop only).
    var appleRelay: AnyObject?
  }

  /// First identifier for key paths registered at run time; the macro numbers
  /// properties from zero, far below this.
  static let firstDynamicID = 1 << 20

  @usableFromInline
  static func make() -> RegistrarStorage {
    let buffer = RegistrarStorage.create(minimumCapacity: 1) { _ in State() }
    let storage = unsafeDowncast(buffer, to: RegistrarStorage.self)
    storage.withUnsafeMutablePointerToElements { sync in
      sync.initialize(to: tracking_registrar_sync())
      tracking_atomic_init(&sync.pointee.observedMask, 0)
      tracking_atomic_init(&sync.pointee.appleRelay, 0)
      tracking_lock_init(&sync.pointee.lock)
    }
    return storage
  }

  deinit {
    withUnsafeMutablePointerToElements { sync in
      tracking_lock_destroy(&sync.pointee.lock)
      _ = sync.deinitialize(count: 1)
    }
  }

  @inlinable
  var sync: UnsafeMutablePointer<tracking_registrar_sync> {
    withUnsafeMutablePointerToElements { $0 }
  }

  /// The bit standing for property `id` in the observed mask.
  @inlinable
  static func maskBit(_ id: Int) -> Int {
    id >= 0 && id < Int.bitWidth - 1 ? 1 &<< id : Int.min
  }

  /// The observed-mask bits of a set of properties.
  static func mask(of properties: borrowing PropertySet) -> Int {
    let low = UInt64(Int.bitWidth - 1)
    var mask = Int(truncatingIfNeeded: properties.bits & ((1 &<< low) &- 1))
    if properties.bits >> low != 0 || !(properties.spilled?.isEmpty ?? true) { mask |= Int.min }
    return mask
  }

  /// Whether an installed observer may watch property `id`. Read without the lock on
  /// every mutation: a mutation racing with an install is ordered before that install,
  /// exactly as if it had happened a moment earlier.
  @inlinable
  func mayObserve(_ id: Int) -> Bool {
    tracking_atomic_load_relaxed(&sync.pointee.observedMask) & Self.maskBit(id) != 0
  }

  /// Whether any observer is installed.
  @inlinable
  var hasObservers: Bool {
    tracking_atomic_load_relaxed(&sync.pointee.observedMask) != 0
  }

  /// Runs `body` on the state under the lock, then publishes the observed mask.
  /// The header is reached through its pointer: the lock already guarantees exclusive
  /// access, so Swift's dynamic exclusivity check would only add cost.
  @inline(__always)
  func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
    try withUnsafeMutablePointers { state, sync in
      tracking_lock_lock(&sync.pointee.lock)
      defer {
        tracking_atomic_store_release(&sync.pointee.observedMask, state.pointee.mask)
        tracking_lock_unlock(&sync.pointee.lock)
      }
      return try body(&state.pointee)
    }
  }

  // MARK: Installing

  func install(_ observer: TrackingObserver, properties: PropertySet) {
    let entry = Entry(observer: observer, kind: observer.kind, properties: properties)
    withLock { state in
      if state.entries.count >= state.sweepThreshold {
        Self.compact(&state, changing: nil) { _ in .keep }
        state.sweepThreshold = Swift.max(8, state.entries.count * 2)
      }
      state.entries.append(entry)
      state.mask |= Self.mask(of: properties)
    }
  }

  /// The number of installed entries, finished ones not yet swept included.
  var entryCount: Int { withLock { $0.entries.count } }

  // MARK: Mutations

  /// Runs the will-set callbacks of the observers that track `id`.
  ///
  /// One-shot observers are removed while the lock is held; their callbacks run after
  /// it is released, on the mutating thread, before the value changes.
  @usableFromInline
  func willSet(_ id: Int, change: () -> TrackedChange) {
    var due = DueObservers()
    withLock { state in
      let scanned = state.entries.count
      Self.compact(&state, changing: id) { entry in
        switch entry.kind {
        case .willSetOnce:
          due.append(entry.observer, scanned: scanned)
          return .remove
        case .willSetThenDidSet, .willSetRepeating:
          due.append(entry.observer, scanned: scanned)
          return .keep
        case .didSetOnce:
          return .keep
        }
      }
    }
    due.forEach { $0.notifyWillSet(change()) }
  }

  /// Runs the did-set callbacks of the observers that track `id`, after the change.
  @usableFromInline
  func didSet(_ id: Int, change: () -> TrackedChange) {
    var due = DueObservers()
    withLock { state in
      let scanned = state.entries.count
      Self.compact(&state, changing: id) { entry in
        guard entry.kind != .willSetOnce, entry.kind != .willSetRepeating else { return .keep }
        due.append(entry.observer, scanned: scanned)
        return .remove
      }
    }
    due.forEach { $0.notifyDidSet(change()) }
  }

  enum Verdict { case keep, remove }

  /// One pass over the entries, in order, that keeps the rest in place and recomputes
  /// the observed mask from what it keeps.
  ///
  /// - With `changing: id`, entries that do not watch `id` are kept untouched: their
  ///   observers are not even looked at, so a write pays one bit test per unrelated
  ///   entry. Entries that watch `id` are dropped if their observer has finished
  ///   elsewhere, else `decide` says whether they stay.
  /// - With `changing: nil` (the install sweep), every finished observer is dropped.
  ///
  /// Entries are borrowed through the buffer and moved, never copied, so scanning an
  /// entry retains nothing (copying one would retain its observer and release it).
  @inline(__always)
  private static func compact(
    _ state: inout State, changing id: Int?, _ decide: (borrowing Entry) -> Verdict
  ) {
    var mask = 0
    var kept = 0
    let count = state.entries.count
    state.entries.withUnsafeMutableBufferPointer { entries in
      for index in 0..<count {
        let keep: Bool
        if let id, !entries[index].properties.contains(id) {
          keep = true
        } else {
          keep = entries[index].observer.isPending && decide(entries[index]) == .keep
        }
        guard keep else { continue }
        mask |= Self.mask(of: entries[index].properties)
        if kept != index { entries.swapAt(kept, index) }
        kept += 1
      }
    }
    // Usually one entry goes; `removeLast()` avoids the generic range removal.
    for _ in kept..<count { state.entries.removeLast() }
    state.mask = mask
  }

  // MARK: Key paths

  /// The identifier of a key path that the macro did not number, assigned on first use.
  @usableFromInline
  func dynamicID(for keyPath: AnyKeyPath) -> Int {
    withLock { state in
      let extras = state.extrasCreatingIfNeeded()
      if let id = extras.dynamicIDs[keyPath] { return id }
      let id = Self.firstDynamicID + extras.dynamicIDs.count
      extras.dynamicIDs[keyPath] = id
      return id
    }
  }
}

extension RegistrarStorage.State {
  mutating func extrasCreatingIfNeeded() -> RegistrarStorage.Extras {
    if let extras { return extras }
    let created = RegistrarStorage.Extras()
    extras = created
    return created
  }
}

/// The observers a mutation must notify, collected under the lock and run after it.
/// Holds the common single observer inline so that firing one tracking allocates
/// nothing; beyond one, the rest go to an array sized once for the worst case (every
/// entry of the registrar), so firing many costs one allocation, not one per doubling.
struct DueObservers {
  private var first: TrackingObserver?
  private var others: [TrackingObserver] = []

  /// Adds an observer. `scanned` is the number of entries being scanned, the most
  /// that can be appended; the spill array is sized for it on first use.
  @inline(__always)
  mutating func append(_ observer: TrackingObserver, scanned: Int) {
    if first == nil {
      first = observer
      return
    }
    if others.isEmpty { others.reserveCapacity(Swift.max(scanned - 1, 1)) }
    others.append(observer)
  }

  func forEach(_ body: (TrackingObserver) -> Void) {
    guard let first else { return }
    body(first)
    for observer in others { body(observer) }
  }
}
