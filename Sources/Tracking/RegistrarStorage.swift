import CTrackingSupport

/// The shared, lock-protected part of a ``TrackingRegistrar``: the observers installed
/// on one object and which of its properties each one watches.
///
/// Layout: one allocation per object. The Swift state is the buffer's header; the
/// lock and the observer count are its tail element, so they have a stable address
/// and can be used from C without Swift's exclusivity checks.
///
/// Observers are kept in an array in installation order, each with a ``PropertySet``
/// bitmask, rather than in a dictionary keyed by `KeyPath` as Apple does: matching a
/// mutation is a linear scan over a few words, with no hashing. Observers that have
/// finished elsewhere (fired through another object, or cancelled) are swept out
/// whenever this registrar fires, and before an install once the array has doubled
/// since the last sweep, so memory stays proportional to the pending observers.
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
      tracking_atomic_init(&sync.pointee.observerCount, 0)
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

  /// Whether any observer is installed. Read without the lock on every mutation: a
  /// mutation racing with an install is ordered before that install, exactly as if it
  /// had happened a moment earlier.
  @inlinable
  var hasObservers: Bool {
    tracking_atomic_load_relaxed(&sync.pointee.observerCount) != 0
  }

  @inline(__always)
  func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
    let sync = self.sync
    tracking_lock_lock(&sync.pointee.lock)
    defer {
      tracking_atomic_store_release(&sync.pointee.observerCount, header.entries.count)
      tracking_lock_unlock(&sync.pointee.lock)
    }
    return try body(&header)
  }

  // MARK: Installing

  func install(_ observer: TrackingObserver, properties: PropertySet) {
    let entry = Entry(observer: observer, kind: observer.kind, properties: properties)
    withLock { state in
      if state.entries.count >= state.sweepThreshold {
        state.entries.removeAll { !$0.observer.isPending }
        state.sweepThreshold = Swift.max(8, state.entries.count * 2)
      }
      state.entries.append(entry)
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
      state.entries.removeAll { entry in
        guard entry.observer.isPending else { return true }
        guard entry.properties.contains(id) else { return false }
        switch entry.kind {
        case .willSetOnce:
          due.append(entry.observer)
          return true
        case .willSetThenDidSet:
          due.append(entry.observer)
          return false
        case .didSetOnce:
          return false
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
      state.entries.removeAll { entry in
        guard entry.observer.isPending else { return true }
        guard entry.properties.contains(id), entry.kind != .willSetOnce else { return false }
        due.append(entry.observer)
        return true
      }
    }
    due.forEach { $0.notifyDidSet(change()) }
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
/// Holds the common single observer inline so that firing one tracking allocates nothing.
struct DueObservers {
  private var first: TrackingObserver?
  private var others: [TrackingObserver] = []

  mutating func append(_ observer: TrackingObserver) {
    if first == nil { first = observer } else { others.append(observer) }
  }

  func forEach(_ body: (TrackingObserver) -> Void) {
    guard let first else { return }
    body(first)
    for observer in others { body(observer) }
  }
}
