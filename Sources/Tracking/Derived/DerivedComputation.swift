import CTrackingSupport

/// The node behind one ``Derived``: its closure, its cached value and the rule that says
/// whether a new value differs from the previous one. Everything else is the
/// non-generic ``Computation``'s.
///
/// The node is owned by its ``Derived`` (which cancels it when released) and by the
/// observers installed on its inputs while it observes them; it refers to the `Derived`
/// only weakly, to name it in the events of its announcements.
final class DerivedComputation<Value>: Computation, @unchecked Sendable {
  private let compute: () -> Value
  /// Whether two values are to be told apart; `nil`: always (no cut-off).
  private let isEqual: ((Value, Value) -> Bool)?
  /// The cached value's slot: initialized while `hasCache` is set; only touched under
  /// the state's lock.
  private let cache = UnsafeMutablePointer<Value>.allocate(capacity: 1)
  /// The `Derived` this node computes, for the events of its announcements.
  weak var owner: Derived<Value>?
  /// `Derived<Value>.self`, looked up once: code generic over `Value` finds the
  /// metadata of a generic type through the runtime's cache, some 300 instructions per
  /// lookup, which every tracked read would otherwise pay.
  private let derivedType: any Trackable.Type = Derived<Value>.self

  init(_ compute: @escaping () -> Value, isEqual: ((Value, Value) -> Bool)?, site: SourceSite?) {
    self.compute = compute
    self.isEqual = isEqual
    super.init(site: site)
  }

  /// Attaches the node to its `Derived`, and to the scope it is made in, if any (see
  /// ``Derived``'s "Lifetime").
  func start(for owner: Derived<Value>) {
    self.owner = owner
    if let scope = LifetimeOwner.current as? ScopeOwnership {
      scope.own(Owned(end: { [weak self] in self?.stop() }, hasEnded: { [weak self] in self == nil }))
    }
  }

  deinit {
    // No lock: nothing else can reach this node any more.
    if state.valueWhileLocked.pointee.hasCache { cache.deinitialize(count: 1) }
    cache.deallocate()
  }

  // MARK: Reading

  /// The current value, recorded as read by the current tracking scope (with the
  /// version it has), computed first if stale.
  @inline(__always)
  func read(by owner: Derived<Value>) -> Value {
    let scope = CurrentScope.raw
    // One lock when the value is current (the common case): the check and the read.
    // A recomputation under way (`runningThread`) is looked at closer by the pull: on
    // another thread, its value is not stored yet.
    state.lock()
    if _slowPath(state.valueWhileLocked.pointee.needsUpdate || state.valueWhileLocked.pointee.runningThread != 0) {
      state.unlock()
      Computation.ensureCurrent(self)
      state.lock()
    }
    let version = state.valueWhileLocked.pointee.version
    let value = cache.pointee
    state.unlock()
    if _slowPath(CurrentScope.readNeedsRecording(scope)) {
      recordRead(by: owner, version: version, scope: scope)
    }
    return value
  }

  /// Records a read in the current scope (and relays it to Apple's registrar). A read
  /// that is not a node's run (a one-shot tracking), or that Apple may track, makes
  /// the value announce its changes from now on.
  @inline(never)
  private func recordRead(by owner: Derived<Value>, version: UInt64, scope: UnsafeMutableRawPointer?) {
    var announces = false
    if let scope, scope != CurrentScope.requiredMarker {
      let list = scope.assumingMemoryBound(to: AccessList.self)
      list.pointee.record(registrar.storage, 0, type: derivedType, computation: self, version: version)
      announces = !list.pointee.isNodeRun
    } else if scope != nil {
      RequiredTracking.reportUntrackedRead(owner, \Derived<Value>.value, name: "value")
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
    return ChangeSite(
      objectID: ObjectIdentifier(owner), objectType: derivedType, propertyID: 0, keyPath: owner.valueKeyPath)
  }

  // MARK: Recomputing

  override func recompute(thread: UInt) {
    var reads = AccessList()
    reads.isNodeRun = true
    let value = collect(into: &reads, compute)
    state.lock()
    let node = state.valueWhileLocked
    let changed: Bool
    if node.pointee.hasCache, let isEqual {
      changed = !isEqual(cache.pointee, value)
    } else {
      changed = true
    }
    let announces = changed && node.pointee.hasCache && node.pointee.announces
    if changed && !announces { store(value, in: node) }
    node.pointee.recomputeCount += 1
    state.unlock()
    if announces { announce(value) }
    endRecomputation(reads)
  }

  /// Stores a new value and moves to the next version. Under the state's lock.
  @inline(__always)
  private func store(_ value: Value, in node: UnsafeMutablePointer<NodeState>) {
    if node.pointee.hasCache {
      cache.pointee = value
    } else {
      cache.initialize(to: value)
      node.pointee.hasCache = true
    }
    node.pointee.version &+= 1
  }

  /// Stores a new value with a stored property's timing for the one-shot observers and
  /// Apple's registrar: `willSet` while the old value is still the cached one, then
  /// `didSet`.
  private func announce(_ value: Value) {
    guard let owner else {
      state.withLock { store(value, in: &$0) }
      return
    }
    let site = { ChangeSite(objectID: ObjectIdentifier(owner), objectType: self.derivedType, propertyID: 0, keyPath: owner.valueKeyPath) }
    let storage = registrar.storage
    if storage.isRead(0) { storage.willSet(0, subject: owner, toNodes: false, site: site) }
    if TrackingInterop.isRelaying { TrackingInterop.relayWillSet(storage, 0) }
    state.withLock { store(value, in: &$0) }
    if storage.isRead(0) { storage.didSet(0, subject: owner, toNodes: false, site: site) }
    if TrackingInterop.isRelaying { TrackingInterop.relayDidSet(storage, 0) }
  }

  private func store(_ value: Value, in node: inout NodeState) {
    withUnsafeMutablePointer(to: &node) { store(value, in: $0) }
  }

  /// The cached value, if there is one, without computing or recording anything.
  var cachedValue: Value? {
    state.lock()
    defer { state.unlock() }
    let node = state.valueWhileLocked.pointee
    return node.hasCache && !node.isStale ? cache.pointee : nil
  }
}
