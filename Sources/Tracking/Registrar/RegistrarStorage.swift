import CTrackingSupport

/// The shared, lock-protected part of a ``TrackingRegistrar``: the one-shot observers
/// installed on one object and which of its properties each one watches, and the
/// sources of its properties that nodes of the reactive graph read (see
/// ``PropertySource``, kept in the extras).
///
/// **Layout.** One allocation per object (72 bytes, an 80-byte heap block). The Swift state is the buffer's
/// header; the atomic words and the lock are its tail element, so they have a stable
/// address and are used from C without Swift's exclusivity checks.
///
/// **Observers** are kept in installation order, each with a ``PropertySet`` bitmask,
/// rather than in a dictionary keyed by `KeyPath` as Apple does: one observer alone
/// (most objects), or an array of entries (see ``Observers``). A write of a watched
/// property takes the lock and matches entries with one AND each, no hashing.
/// Observers that have finished elsewhere (fired through another object, or cancelled)
/// are swept out when a property they watch changes, and before an install that would
/// grow the array, so memory stays proportional to the pending observers.
///
/// **The words** (bit *n* stands for property *n*; the top bit for every property
/// numbered too high to have a bit):
/// - `readMask`: the properties ever read inside a tracking scope. It only grows. A
///   write of any other property loads this one word and returns: nothing can depend on
///   it. Set with a relaxed OR by the reading thread before it reads the value.
/// - `changeEpoch`: bumped by every write of a property in `readMask`, at `willSet` and
///   again at `didSet`. A scope notes it when it first reads this object; when its
///   observer is installed, a larger epoch than the scope's own writes account for
///   means another thread changed something in between, and the observer is told at
///   once (see ``AccessList/changedElsewhere()``). This is what keeps a change made
///   while a tracking's `apply` runs from being lost.
/// - `observedMask`: the union of the properties that pending observers watch and of
///   those that have sources; written under the lock, read without it.
/// - `willSetMask` (32 bits, in the lock's padding): the same for the observers that
///   hear will-sets, and the sources that a node that hears will-sets subscribed to;
///   a write whose property has no bit there skips the will-set pass. Written and read
///   like `observedMask`, and ordered by the same epoch protocol.
///
/// **Why these orders are enough.** A reader ORs the bit and notes the epoch before it
/// reads the value; a write that the program orders after that read (the only kind a
/// scope can miss) therefore sees the bit, bumps the epoch past the noted value, and the
/// install notices. An install publishes its entry (under the lock, then a sequentially
/// consistent fence) before it loads the epoch, and a write bumps the epoch (a
/// sequentially consistent read-modify-write) before it loads `observedMask`: so either
/// the write sees the new observer, or the install sees the bump (or both; a one-shot
/// observer still fires once, as its state word decides). A node's run needs no epoch:
/// it links to the property's source before it reads the value, in one critical
/// section of the graph lock, and a write moves the source's version under that lock
/// after storing the value; a new source's bit is published, then a fence, before the
/// value is read.
///
/// **Lock rules.** One lock per object; nothing calls out while holding it (callbacks
/// are collected under it and run after). One other lock is taken under it: the graph
/// lock, by a write that propagates from the property's sources and by a read that
/// links to a new source. That cannot deadlock: a tracked object's lock is never taken
/// under the graph lock (only a derived value's registrar lock is, for its hooks, and a
/// derived value's registrar has no sources). The allocation of the Apple relay
/// (TrackingInterop.swift) also happens under it, and takes no lock of ours.
@usableFromInline
final class RegistrarStorage: ManagedBuffer<RegistrarStorage.State, tracking_registrar_sync> {
  @usableFromInline
  struct State {
    var observers = Observers.none
    /// What few objects need, allocated on first use so that every other object
    /// stays small.
    var extras: Extras?
  }

  /// Rarely used per-object state, with the sources' table after it in the same
  /// allocation (a node's first read of an object needs both). Under the storage's
  /// lock; reached through pointers, so without exclusivity checks.
  final class Extras: ManagedBuffer<Extras.Fields, SourceTable> {
    struct Fields {
      /// Identifiers handed out to key paths that the macro did not number.
      var dynamicIDs: [AnyKeyPath: Int] = [:]
      /// How hooks and hooked sources refer to this storage (see ``StorageHandle``).
      var handle: StorageHandle?
      /// The observed/unobserved hooks of this object's properties (see ``HookTable``).
      var hooks: HookTable?
      /// A node read one of the object's properties: the table is in use.
      var hasSources = false
    }

    static func make() -> Extras {
      let extras = unsafeDowncast(create(minimumCapacity: 1) { _ in Fields() }, to: Extras.self)
      extras.withUnsafeMutablePointerToElements { $0.initialize(to: SourceTable()) }
      return extras
    }

    deinit {
      withUnsafeMutablePointerToElements { table in
        SourceTable.releaseSources(of: table)
        _ = table.deinitialize(count: 1)
      }
    }

    var dynamicIDs: [AnyKeyPath: Int] {
      _read { yield withUnsafeMutablePointerToHeader { $0 }.pointee.dynamicIDs }
      _modify { yield &withUnsafeMutablePointerToHeader { $0 }.pointee.dynamicIDs }
    }

    var handle: StorageHandle? {
      get { withUnsafeMutablePointerToHeader { $0.pointee.handle } }
      set { withUnsafeMutablePointerToHeader { $0.pointee.handle = newValue } }
    }

    var hooks: HookTable? {
      get { withUnsafeMutablePointerToHeader { $0.pointee.hooks } }
      set { withUnsafeMutablePointerToHeader { $0.pointee.hooks = newValue } }
    }

    /// The sources of the properties that nodes of the reactive graph read (see
    /// ``PropertySource``), `nil` until a node first reads one.
    @inline(__always)
    var sources: SourceTable.Ref? {
      withUnsafeMutablePointers { fields, table in fields.pointee.hasSources ? table : nil }
    }

    /// The sources' table, in use from now on.
    func usingSources() -> SourceTable.Ref {
      withUnsafeMutablePointers { fields, table in
        fields.pointee.hasSources = true
        return table
      }
    }
  }

  /// First identifier for key paths registered at run time; the macro numbers
  /// properties from zero, far below this.
  static let firstDynamicID = 1 << 20

  /// A new storage with no observers. `tailCapacity` above 1 leaves room after the
  /// synchronization words, which only a state value's storage uses (see
  /// ``StateObservation``).
  @usableFromInline
  static func make(tailCapacity: Int = 1) -> RegistrarStorage {
    let buffer = RegistrarStorage.create(minimumCapacity: tailCapacity) { _ in State() }
    // `create` returns the dynamic subclass typed as its base class.
    let storage = unsafeDowncast(buffer, to: RegistrarStorage.self)
    storage.withUnsafeMutablePointerToElements { sync in
      sync.initialize(to: tracking_registrar_sync())
      tracking_atomic_init(&sync.pointee.readMask, 0)
      tracking_atomic_init(&sync.pointee.observedMask, 0)
      tracking_atomic_init(&sync.pointee.changeEpoch, 0)
      tracking_atomic_init(&sync.pointee.appleRelay, 0)
      tracking_lock_init(&sync.pointee.lock)
      tracking_will_set_mask_init(sync)
    }
    return storage
  }

  deinit {
    // First, so that no hook, and no hooked source, touches this storage from now on
    // (see `StorageHandle`).
    withUnsafeMutablePointerToHeader { $0.pointee.extras?.handle?.clear() }
    // The object is gone: observers with a deinit handler hear of it, on this thread
    // (one-shot trackings that asked for deinit events), and so do the reactions that
    // read it (its sources are detached). Nobody else can reach this storage any more,
    // so no lock is needed.
    withUnsafeMutablePointerToHeader { state in
      state.pointee.observers.forEach { $0.notifyDeinit() }
      if let sources = state.pointee.extras?.sources { detachSources(sources) }
    }
    withUnsafeMutablePointerToElements { sync in
      // The relay to Apple's registrar, if one was made: the word holds its reference.
      let relay = tracking_atomic_load_acquire(&sync.pointee.appleRelay)
      if let relay = UnsafeRawPointer(bitPattern: relay) { Unmanaged<AnyObject>.fromOpaque(relay).release() }
      tracking_lock_destroy(&sync.pointee.lock)
      _ = sync.deinitialize(count: 1)
    }
  }

  @inlinable
  var sync: UnsafeMutablePointer<tracking_registrar_sync> {
    withUnsafeMutablePointerToElements { $0 }
  }

  /// The bit standing for property `id` in the masks.
  @inlinable
  static func maskBit(_ id: Int) -> Int {
    id >= 0 && id < Int.bitWidth - 1 ? 1 &<< id : Int.min
  }

  /// The mask bits of a set of properties.
  static func mask(of properties: borrowing PropertySet) -> Int {
    if properties.includesAll { return -1 }
    let low = UInt64(Int.bitWidth - 1)
    var mask = Int(truncatingIfNeeded: properties.bits & ((1 &<< low) &- 1))
    if properties.bits >> low != 0 || !(properties.spilled?.isEmpty ?? true) { mask |= Int.min }
    return mask
  }

  /// The bit standing for property `id` in the 32-bit will-set mask.
  @inlinable
  static func willSetBit(_ id: Int) -> Int32 {
    id >= 0 && id < 31 ? 1 &<< Int32(id) : Int32.min
  }

  /// The will-set mask bits of a set of properties.
  static func willSetMask(of properties: borrowing PropertySet) -> Int32 {
    if properties.includesAll { return -1 }
    var mask = Int32(truncatingIfNeeded: properties.bits & ((1 &<< 31) &- 1))
    if properties.bits >> 31 != 0 || !(properties.spilled?.isEmpty ?? true) { mask |= Int32.min }
    return mask
  }

  // MARK: Reads

  /// Whether property `id` was ever read inside a tracking scope: the one load a write
  /// of an unread property pays.
  @inlinable
  func isRead(_ id: Int) -> Bool {
    tracking_atomic_load_relaxed(&sync.pointee.readMask) & Self.maskBit(id) != 0
  }

  /// Whether any property was ever read inside a tracking scope.
  @inlinable
  var hasReaders: Bool {
    tracking_atomic_load_relaxed(&sync.pointee.readMask) != 0
  }

  /// Notes that property `id` is read inside a tracking scope (before its value is).
  @inline(__always)
  func markRead(_ id: Int) {
    let bit = Self.maskBit(id)
    if tracking_atomic_load_relaxed(&sync.pointee.readMask) & bit == 0 {
      tracking_atomic_or_relaxed(&sync.pointee.readMask, bit)
    }
  }

  /// Notes that every property is read (whole-object observation).
  func markAllRead() {
    tracking_atomic_or_relaxed(&sync.pointee.readMask, -1)
  }

  /// The change epoch, as a scope notes it on its first read of this object.
  @inline(__always)
  var changeEpoch: Int {
    tracking_atomic_load_relaxed(&sync.pointee.changeEpoch)
  }

  /// The change epoch as an install checks it: after a fence that orders the install's
  /// entry before this load (see the type's discussion).
  var changeEpochAfterInstall: Int {
    tracking_atomic_fence_seq_cst()
    return tracking_atomic_load_relaxed(&sync.pointee.changeEpoch)
  }

  /// Bumps the change epoch for a write of a read property, and counts it as the own
  /// write of every tracking scope on this thread that read this object (a scope's own
  /// writes never fire it, as with Apple's tracking).
  @inline(__always)
  func bumpChangeEpoch() {
    _ = tracking_atomic_fetch_add_seq_cst(&sync.pointee.changeEpoch, 1)
    if let scope = CurrentScope.accessList {
      AccessList.countOwnWrite(of: self, from: scope)
    }
  }

  /// For something that changes what property `id` stands for without a write (a
  /// derived value that stops observing its inputs): bumps the epoch, as a write of a
  /// read property does, so that an install under way notices, then returns whether an
  /// observer may watch the property already. The write's order (see the type's
  /// discussion): either the caller sees the observer, or the install sees the bump.
  func countsAsChangeForInstalls(_ id: Int) -> Bool {
    guard isRead(id) else { return false }
    _ = tracking_atomic_fetch_add_seq_cst(&sync.pointee.changeEpoch, 1)
    return observes(id)
  }

  /// Runs `body` on the state under the lock. The header is reached through its
  /// pointer: the lock already guarantees exclusive access, so Swift's dynamic
  /// exclusivity check would only add cost.
  @inline(__always)
  func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
    try withUnsafeMutablePointers { state, sync in
      tracking_lock_lock(&sync.pointee.lock)
      defer { tracking_lock_unlock(&sync.pointee.lock) }
      return try body(&state.pointee)
    }
  }

  /// Publishes the union of the entries' properties (and that of the entries that
  /// hear will-sets), with the properties that have sources (see ``SourceTable``);
  /// called under the lock whenever the entries change. Relaxed: readers that need
  /// ordering get it from the epoch protocol above or from taking the lock.
  @inline(__always)
  func publish(_ masks: Masks, _ state: borrowing State) {
    var masks = masks
    if let sources = state.extras?.sources {
      masks.observed |= sources.pointee.masks.observed
      masks.willSet |= sources.pointee.masks.willSet
    }
    tracking_atomic_store_relaxed(&sync.pointee.observedMask, masks.observed)
    tracking_will_set_mask_store(sync, masks.willSet)
  }

  /// Adds the properties that have sources to the published masks (under the lock):
  /// a source was made, or a node that hears will-sets read one.
  func publishSources(_ sources: SourceTable) {
    tracking_atomic_store_relaxed(
      &sync.pointee.observedMask, tracking_atomic_load_relaxed(&sync.pointee.observedMask) | sources.masks.observed)
    tracking_will_set_mask_store(sync, tracking_will_set_mask_load(sync) | sources.masks.willSet)
  }

  /// Whether a pending observer may watch property `id` (the observed mask's bit).
  @inline(__always)
  func observes(_ id: Int) -> Bool {
    tracking_atomic_load_relaxed(&sync.pointee.observedMask) & Self.maskBit(id) != 0
  }

  /// Whether a pending observer that hears will-sets may watch property `id`.
  @inline(__always)
  @usableFromInline
  func observesWillSet(_ id: Int) -> Bool {
    tracking_will_set_mask_load(sync) & Self.willSetBit(id) != 0
  }

  // MARK: Installing

  func install(_ observer: TrackingObserver, properties: PropertySet) {
    let hearsWillSet = observer.hearsWillSet
    let bits = Self.mask(of: properties)
    let willSetBits = hearsWillSet ? Self.willSetMask(of: properties) : 0
    let hooks = withLock { state in
      if state.observers.shouldSweepBeforeAdding {
        publish(state.observers.compact(changing: nil) { _ in .keep }, state)
      }
      state.observers.add(observer, properties: properties, hearsWillSet: hearsWillSet)
      publish(
        Masks(
          observed: tracking_atomic_load_relaxed(&sync.pointee.observedMask) | bits,
          willSet: tracking_will_set_mask_load(sync) | willSetBits), state)
      return HookTable.settle(state)
    }
    hooks?.deliver()
  }

  /// The number of installed entries, finished ones not yet swept included.
  var entryCount: Int { withLock { $0.observers.count } }

  /// Whether one observer is installed, held without an entry (introspection).
  var holdsOneObserverAlone: Bool {
    withLock { state in
      if case .one = state.observers { return true }
      return false
    }
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
    let created = RegistrarStorage.Extras.make()
    extras = created
    return created
  }
}
