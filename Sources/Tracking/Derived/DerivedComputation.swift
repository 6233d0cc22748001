import CTrackingSupport

/// The node behind one ``Derived``: the cached value, in untyped memory, and the
/// value's typed side (``DerivedValueOperations``). Everything else is the
/// ``Computation``'s. Not generic, so that a change costs one specialized copy of the
/// engine's code whatever the value's type.
///
/// **Slots.** `cache` holds the value while `hasCache` is set, and is only touched
/// under the state's lock. `new` (beside it, in the same allocation) is where a
/// recomputation computes; only the thread that holds the update lock touches it.
///
/// The node is owned by its ``Derived`` (which cancels it when released) and by the
/// observers installed on its inputs while it observes them; it refers to the `Derived`
/// only weakly, to name it in the events of its announcements.
final class DerivedComputation: Computation, @unchecked Sendable {
  private let operations: DerivedValueOperations
  /// The cached value's slot (see "Slots").
  private let cache: UnsafeMutableRawPointer
  /// The slot a recomputation computes into (see "Slots").
  private let new: UnsafeMutableRawPointer
  /// The `Derived` this node computes, for the events of its announcements.
  weak var owner: AnyObject?
  /// `Derived<Value>.self`, looked up once: finding the metadata of a generic type
  /// goes through the runtime's cache, some 300 instructions per lookup, which every
  /// tracked read would otherwise pay.
  private let derivedType: any Trackable.Type
  /// `\Derived<Value>.value`, for the events of its announcements.
  private let valueKeyPath: AnyKeyPath

  init(
    _ operations: DerivedValueOperations, derivedType: any Trackable.Type, valueKeyPath: AnyKeyPath,
    site: SourceSite?
  ) {
    self.operations = operations
    self.derivedType = derivedType
    self.valueKeyPath = valueKeyPath
    let stride = max(operations.stride, 1)
    cache = UnsafeMutableRawPointer.allocate(byteCount: 2 * stride, alignment: operations.alignment)
    new = cache + stride
    super.init(site: site)
  }

  /// Attaches the node to its `Derived`, and to the scope it is made in, if any (see
  /// ``Derived``'s "Lifetime").
  func start(for owner: AnyObject) {
    self.owner = owner
    if let scope = LifetimeOwner.current as? ScopeOwnership {
      scope.own(Owned(end: { [weak self] in self?.stop() }, hasEnded: { [weak self] in self == nil }))
    }
  }

  deinit {
    // No lock: nothing else can reach this node any more.
    if state.valueWhileLocked.pointee.hasCache { _ = operations.commit(.empty, cache, new) }
    cache.deallocate()
  }

  // MARK: Reading

  /// Begins a read of the value: brings it up to date and returns the cache with the
  /// state's lock held. The caller copies the value out (specialized for its type:
  /// see ``Derived/value``) and calls ``endRead()``.
  ///
  /// One lock when the value is current (the common case): the check and the read. A
  /// recomputation under way (`runningThread`) is looked at closer by the pull: on
  /// another thread, its value is not stored yet.
  @inline(__always)
  func beginRead() -> UnsafeMutableRawPointer {
    state.lock()
    if _slowPath(state.valueWhileLocked.pointee.needsUpdate || state.valueWhileLocked.pointee.runningThread != 0) {
      state.unlock()
      Computation.ensureCurrent(self)
      state.lock()
    }
    return cache
  }

  /// Ends a read begun by ``beginRead()``: releases the lock and records the read, with
  /// the version it saw, in the current tracking scope.
  @inline(__always)
  func endRead() {
    let version = state.valueWhileLocked.pointee.version
    state.unlock()
    let scope = CurrentScope.raw
    if _slowPath(CurrentScope.readNeedsRecording(scope)) {
      recordRead(version: version, scope: scope)
    }
  }

  /// Records a read in the current scope (and relays it to Apple's registrar). A read
  /// that is not a node's run (a one-shot tracking), or that Apple may track, makes
  /// the value announce its changes from now on.
  @inline(never)
  private func recordRead(version: UInt64, scope: UnsafeMutableRawPointer?) {
    var announces = false
    if let scope, scope != CurrentScope.requiredMarker {
      let list = scope.assumingMemoryBound(to: AccessList.self)
      list.pointee.record(registrar.storage, 0, type: derivedType, computation: self, version: version)
      announces = !list.pointee.isNodeRun
    } else if scope != nil {
      RequiredTracking.reportUntrackedRead(typeName: String(describing: derivedType), propertyName: "value")
    }
    if TrackingInterop.isRelaying {
      TrackingInterop.relayAccess(registrar.storage, 0)
      announces = true
    }
    if announces { state.withLock { $0.announces = true } }
  }

  override var ownerType: (any Trackable.Type)? { derivedType }

  override var changeSite: ChangeSite? {
    guard let owner else { return nil }
    return ChangeSite(objectID: ObjectIdentifier(owner), objectType: derivedType, propertyID: 0, keyPath: valueKeyPath)
  }

  // MARK: Recomputing

  override func recompute(thread: UInt) {
    var reads = AccessList()
    reads.isNodeRun = true
    let run = operations.run
    let new = self.new
    collect(into: &reads) { run(new) }
    state.lock()
    let node = state.valueWhileLocked
    let changed = !node.pointee.hasCache || operations.commit(.differs, cache, new)
    let announces = changed && node.pointee.hasCache && node.pointee.announces
    if changed && !announces { store(in: node) }
    node.pointee.recomputeCount += 1
    state.unlock()
    // An equal value is destroyed outside the lock: its deinit may be anything.
    if !changed { _ = operations.commit(.discard, cache, new) }
    if announces { announce() }
    endRecomputation(reads)
  }

  /// Moves the new value into the cache and moves to the next version. Under the
  /// state's lock.
  @inline(__always)
  private func store(in node: UnsafeMutablePointer<NodeState>) {
    _ = operations.commit(node.pointee.hasCache ? .replace : .fill, cache, new)
    node.pointee.hasCache = true
    node.pointee.version &+= 1
  }

  /// Stores the new value with a stored property's timing for the one-shot observers
  /// and Apple's registrar: `willSet` while the old value is still the cached one, then
  /// `didSet`.
  private func announce() {
    guard let owner else {
      state.withLock { withUnsafeMutablePointer(to: &$0) { store(in: $0) } }
      return
    }
    let site = { ChangeSite(objectID: ObjectIdentifier(owner), objectType: self.derivedType, propertyID: 0, keyPath: self.valueKeyPath) }
    let storage = registrar.storage
    if storage.isRead(0) { storage.willSet(0, subject: owner, toNodes: false, site: site) }
    if TrackingInterop.isRelaying { TrackingInterop.relayWillSet(storage, 0) }
    state.withLock { withUnsafeMutablePointer(to: &$0) { store(in: $0) } }
    if storage.isRead(0) { storage.didSet(0, subject: owner, toNodes: false, site: site) }
    if TrackingInterop.isRelaying { TrackingInterop.relayDidSet(storage, 0) }
  }

  /// Calls `body` with the cached value's slot if the value is cached and current,
  /// without computing or recording anything; with `nil` otherwise. Under the lock.
  func withCurrentCache<R>(_ body: (UnsafeMutableRawPointer?) -> R) -> R {
    state.lock()
    defer { state.unlock() }
    let node = state.valueWhileLocked
    return body(node.pointee.hasCache && !node.pointee.isStale ? cache : nil)
  }
}
