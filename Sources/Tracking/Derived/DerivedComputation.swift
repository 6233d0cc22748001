import CTrackingSupport

/// The node behind one ``Derived``: the cached value, in untyped memory, and the
/// value's typed side (``DerivedValueOperations``). Everything else is the
/// ``Computation``'s. Not generic, so that a change costs one specialized copy of the
/// engine's code whatever the value's type.
///
/// **Slots.** `cache` holds the value while `hasCache` is set. It is written only
/// under the graph lock by the thread that holds the update lock, and read under the
/// graph lock, or by that thread. `new` (beside it, in the same allocation) is where a
/// recomputation computes; only the thread that holds the update lock touches it.
///
/// The node is owned by its ``Derived`` (which cancels it when released) and by the
/// links that name it (its readers' and its own, to its inputs, while it observes
/// them). It knows the `Derived` by its identity, to name it in a change's site, and
/// refers to it weakly only once the value announces its changes, to hand it to the
/// one-shot observers told (see ``announcer``).
final class DerivedComputation: Computation, @unchecked Sendable {
  private let operations: DerivedValueOperations
  /// The cached value's slot (see "Slots").
  private let cache: UnsafeMutableRawPointer
  /// The slot a recomputation computes into (see "Slots").
  private let new: UnsafeMutableRawPointer
  /// The `Derived` this node computes, as an identity: what names it in a change's
  /// site (``changeSite``). Set by ``start(for:)``, before the node is shared.
  @exclusivity(unchecked) private var ownerID: ObjectIdentifier?
  /// The same `Derived`, unretained: used only during a read of its value (which
  /// keeps it alive), to make ``announcer``. Set with `ownerID`.
  @exclusivity(unchecked) private var readOwner: Unmanaged<AnyObject>?
  /// The `Derived`, for the events of its announcements: set under the graph lock with
  /// `announces`, by the first read that makes the value announce (a one-shot
  /// tracking's, or one Apple may track), and read under it.
  ///
  /// **Why only then.** A weak reference gives the object a side table, and from then
  /// on every retain and release of it takes the runtime's slow path (about 50
  /// instructions more per retain and 75 per release, callgrind). A `Derived` is
  /// retained wherever code reads one out of an array or a property, often several
  /// times per change; only a value that announces needs its object, so only it pays.
  private weak var announcer: AnyObject?
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
    ownerID = ObjectIdentifier(owner)
    readOwner = Unmanaged.passUnretained(owner)
    if let scope = LifetimeOwner.current as? ScopeOwnership {
      scope.own(Owned(end: { [weak self] in self?.stop() }, hasEnded: { [weak self] in self == nil }))
    }
  }

  deinit {
    // No lock: nothing else can reach this node any more.
    if graph.pointee.hasCache { _ = operations.commit(.empty, cache, new) }
    cache.deallocate()
  }

  // MARK: Reading

  /// Begins a read of the value: brings it up to date and returns the cache with the
  /// graph lock held. The caller copies the value out (specialized for its type: see
  /// ``Derived/value``) and calls ``endRead()``.
  ///
  /// One lock when the value is current (the common case): the check and the read. A
  /// recomputation under way (`runningThread`) is looked at closer by the pull: on
  /// another thread, its value is not stored yet.
  @inline(__always)
  func beginRead() -> UnsafeMutableRawPointer {
    Graph.enter()
    if _slowPath(graph.pointee.needsUpdate || graph.pointee.runningThread != 0) {
      let thread = tracking_current_thread()
      if graph.pointee.needsUpdate(on: thread) {
        Computation.bringUpToDate(graph, thread: thread)
        Graph.enter()
      }
    }
    return cache
  }

  /// Ends a read begun by ``beginRead()``: records the read, with the version it
  /// saw, in the current tracking scope, and releases the lock. A node's run (a
  /// derived value's, a reaction's) records it in its links, in the same critical
  /// section as the read.
  ///
  /// The common reads end on the short path of ``readTrivially(into:byteCount:)``;
  /// the others out of line.
  @inline(__always)
  func endRead() {
    if _fastPath(readsCurrentWithoutRecording()) {
      Graph.leave()
      return
    }
    endReadInFull()
  }

  /// ``endRead()`` the full way, with the graph lock held.
  @inline(never)
  private func endReadInFull() {
    let scope = CurrentScope.raw
    guard _slowPath(CurrentScope.readNeedsRecording(scope)) else {
      Graph.leave()
      return
    }
    if let scope, scope != CurrentScope.requiredMarker,
      let node = scope.assumingMemoryBound(to: AccessList.self).pointee.node
    {
      let list = scope.assumingMemoryBound(to: AccessList.self)
      // The read this run made just before: nothing to record, and nothing can be
      // outdated, since any change since that read went down its link.
      guard let tail = Graph.cursor(of: node, first: !list.pointee.linked, expecting: graph) else {
        Graph.leave()
        if _slowPath(TrackingInterop.isRelaying) { relayRead() }
        return
      }
      var work = GraphWork()
      Graph.recordRead(graph, by: node, version: graph.pointee.version, after: tail, work: &work)
      // Stale again since the pull, or being recomputed elsewhere: the change went
      // down the links before this one was made, and will not again. The run read an
      // old value, and is stale from the start.
      let outdated = graph.pointee.isStale || (graph.pointee.runningThread != 0 && graph.pointee.isComputedElsewhere(than: tracking_current_thread()))
      Graph.leave()
      list.pointee.linked = true
      if _slowPath(outdated) { list.pointee.changedBeforeLink = true }
      if !work.isEmpty { work.perform() }
      if _slowPath(TrackingInterop.isRelaying) { relayRead() }
      return
    }
    let version = graph.pointee.version
    Graph.leave()
    recordRead(version: version, scope: scope)
  }

  /// A read of a value that holds no references (`_isPOD`, so its bytes are a copy):
  /// ``beginRead()``, its `byteCount` bytes copied into `destination`, and
  /// ``endRead()``, in one call (see ``Derived/value``).
  ///
  /// The common reads take a short path, with every other case out of line: a current
  /// value read outside any scope, or by a node's run whose cursor expects it (the read
  /// it made just before, or the next link of the previous run's).
  @inline(__always)
  func readTrivially(into destination: UnsafeMutableRawPointer, byteCount: Int) {
    Graph.enter()
    if _fastPath(readsCurrentWithoutRecording()) {
      Self.copyTrivially(byteCount, from: cache, to: destination)
      Graph.leave()
      return
    }
    Graph.leave()
    readTriviallyInFull(into: destination, byteCount: byteCount)
  }

  /// The short path of ``readTrivially(into:byteCount:)``, under the graph lock:
  /// whether the value is current and its read needs no more than this call did to
  /// it. Either the read is not tracked (no scope, no interop), or a node's run reads
  /// it where its cursor expects it (``Graph/followCursor(of:first:to:)``). A current
  /// value that no thread is recomputing cannot be outdated (``endRead()``'s check).
  /// `false` changes nothing: the full read then starts over.
  @inline(__always)
  private func readsCurrentWithoutRecording() -> Bool {
    let node = graph
    guard !node.pointee.needsUpdate, node.pointee.runningThread == 0 else { return false }
    let scope = CurrentScope.raw
    guard CurrentScope.readNeedsRecording(scope) else { return true }
    guard tracking_interop_flags() == 0, let scope, scope != CurrentScope.requiredMarker else { return false }
    let list = scope.assumingMemoryBound(to: AccessList.self)
    guard let run = list.pointee.node, Graph.followCursor(of: run, first: !list.pointee.linked, to: { $0 == node })
    else { return false }
    list.pointee.linked = true
    return true
  }

  /// ``readTrivially(into:byteCount:)`` the full way: brought up to date if needed,
  /// and recorded wherever the read happens.
  @inline(never)
  private func readTriviallyInFull(into destination: UnsafeMutableRawPointer, byteCount: Int) {
    Self.copyTrivially(byteCount, from: beginRead(), to: destination)
    endRead()
  }

  /// Copies the `byteCount` bytes of a value that holds no references: a load and a
  /// store for the common sizes, no call.
  @inline(__always)
  private static func copyTrivially(
    _ byteCount: Int, from source: UnsafeMutableRawPointer, to destination: UnsafeMutableRawPointer
  ) {
    switch byteCount {
    case 8: destination.storeBytes(of: source.loadUnaligned(as: UInt64.self), as: UInt64.self)
    case 1: destination.storeBytes(of: source.load(as: UInt8.self), as: UInt8.self)
    case 0: break
    default: destination.copyMemory(from: source, byteCount: byteCount)
    }
  }

  /// Records a read in the current scope, which is not a node's run (a one-shot
  /// tracking, a region that requires tracking), and relays it to Apple's registrar. A
  /// read by a one-shot tracking, or that Apple may track, makes the value announce
  /// its changes from now on.
  @inline(never)
  private func recordRead(version: UInt64, scope: UnsafeMutableRawPointer?) {
    if let scope, scope != CurrentScope.requiredMarker {
      let list = scope.assumingMemoryBound(to: AccessList.self)
      list.pointee.record(registrar.storage, 0, type: derivedType, computation: self, version: version)
      startAnnouncing()
    } else if scope != nil {
      RequiredTracking.reportUntrackedRead(typeName: String(describing: derivedType), propertyName: "value")
    }
    if TrackingInterop.isRelaying { relayRead() }
  }

  /// Relays a read to Apple's registrar: Apple may track it, so the value announces its
  /// changes from now on.
  @inline(never)
  private func relayRead() {
    TrackingInterop.relayAccess(registrar.storage, 0)
    startAnnouncing()
  }

  /// Makes the value announce its changes from now on (see ``announcer``). Called
  /// during a read of the value, so its `Derived` is alive.
  private func startAnnouncing() {
    Graph.withLock {
      guard !graph.pointee.announces else { return }
      graph.pointee.announces = true
      announcer = readOwner?.takeUnretainedValue()
    }
  }

  override var ownerType: (any Trackable.Type)? { derivedType }

  /// The `Derived` and its `value`; `nil` once the `Derived` is gone (its deinit
  /// cancels this node), so that no site names an object that an object made later
  /// at the same address could be taken for.
  override var changeSite: ChangeSite? {
    guard let ownerID, !Graph.withLock({ graph.pointee.cancelled }) else { return nil }
    return ChangeSite(objectID: ownerID, objectType: derivedType, propertyID: 0, keyPath: valueKeyPath)
  }

  // MARK: Recomputing

  override func recompute(thread: UInt) {
    // The run's scope lives in stack memory this function deinitializes itself,
    // releasing only what it holds: a run that reads only computations, the common
    // case in a graph, leaves it holding nothing (see `AccessList.deinitialize(_:)`).
    withUnsafeTemporaryAllocation(of: AccessList.self, capacity: 1) { buffer in
      let reads = buffer.baseAddress.unsafelyUnwrapped
      reads.initialize(to: AccessList())
      reads.pointee.node = graph
      recompute(recording: &reads.pointee)
      AccessList.deinitialize(reads)
    }
  }

  @inline(__always)
  private func recompute(recording reads: inout AccessList) {
    let run = operations.run
    let new = self.new
    collect(into: &reads) { run(new) }
    // Compared outside the graph lock (`==` is the user's code): only the thread that
    // holds the update lock writes the cache and `hasCache`.
    let hadCache = graph.pointee.hasCache
    let changed = !hadCache || operations.commit(.differs, cache, new)
    Graph.enter()
    let node = graph
    let announces = changed && hadCache && node.pointee.announces
    let replacedValueLeft = changed && !announces && store(in: node)
    node.pointee.recomputeCount &+= 1
    // The run ends in this critical section, with its links, unless the value announces
    // its change first (the run is still under way for the observers it tells).
    var work = GraphWork()
    var stale = false
    if !announces { stale = endRecomputation(reads, work: &work) }
    Graph.leave()
    // An equal value, or the one replaced, is destroyed outside the lock: its deinit
    // may be anything.
    if !changed || replacedValueLeft { _ = operations.commit(.discard, cache, new) }
    if announces {
      announce()
      Graph.enter()
      stale = endRecomputation(reads, work: &work)
      Graph.leave()
    }
    if !work.isEmpty { work.perform() }
    if stale { becomeStale(dirty: true, deferred: false) }
  }

  /// Moves the new value into the cache and moves to the next version. Under the
  /// graph lock. Returns whether the value replaced is left in the new value's slot,
  /// to destroy once the lock is left (see ``DerivedValueOperations/Step/replace``).
  @inline(__always)
  private func store(in node: GraphRef) -> Bool {
    let replacedValueLeft = operations.commit(node.pointee.hasCache ? .replace : .fill, cache, new)
    node.pointee.noteCached()
    node.pointee.version &+= 1
    return replacedValueLeft
  }

  /// ``store(in:)`` in a critical section of its own, then the replaced value destroyed.
  private func storeAlone() {
    if Graph.withLock({ store(in: graph) }) { _ = operations.commit(.discard, cache, new) }
  }

  /// Stores the new value with a stored property's timing for the one-shot observers
  /// and Apple's registrar: `willSet` while the old value is still the cached one, then
  /// `didSet`.
  private func announce() {
    guard let owner = Graph.withLock({ announcer }) else {
      storeAlone()
      return
    }
    let site = { ChangeSite(objectID: ObjectIdentifier(owner), objectType: self.derivedType, propertyID: 0, keyPath: self.valueKeyPath) }
    let storage = registrar.storage
    if storage.isRead(0) { storage.willSet(0, subject: owner, site: site) }
    if TrackingInterop.isRelaying { TrackingInterop.relayWillSet(storage, 0) }
    storeAlone()
    if storage.isRead(0) { storage.didSet(0, subject: owner, site: site) }
    if TrackingInterop.isRelaying { TrackingInterop.relayDidSet(storage, 0) }
  }

  /// Calls `body` with the cached value's slot if the value is cached and current,
  /// without computing or recording anything; with `nil` otherwise. Under the lock.
  func withCurrentCache<R>(_ body: (UnsafeMutableRawPointer?) -> R) -> R {
    Graph.enter()
    defer { Graph.leave() }
    return body(graph.pointee.hasCache && !graph.pointee.isStale ? cache : nil)
  }
}
