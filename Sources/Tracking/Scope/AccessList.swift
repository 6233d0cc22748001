import CTrackingSupport

/// The reads recorded by one tracking scope: for each object read, which of its
/// properties, and what is needed to tell, when the scope's observer is installed,
/// whether another thread changed the object meanwhile.
///
/// A scope lives on the stack of ``AccessList/collect(_:)`` and is published to the
/// thread through ``CurrentScope``, so registrars find it with one load. The first
/// object is held inline: most scopes read one object, and then recording allocates
/// nothing.
@usableFromInline
package struct AccessList {
  /// One object read by the scope.
  @usableFromInline
  struct Entry {
    @usableFromInline let storage: RegistrarStorage
    @usableFromInline var properties: PropertySet
    /// The object's change epoch when the scope first read it.
    @usableFromInline let epoch: Int
    /// How many epoch bumps this thread made on the object while the scope was open:
    /// the scope's own writes, which do not fire it.
    @usableFromInline var ownWrites = 0
    /// The object's type, for naming its properties (introspection).
    @usableFromInline let type: any Trackable.Type

    @usableFromInline
    init(storage: RegistrarStorage, properties: PropertySet, epoch: Int, type: any Trackable.Type) {
      self.storage = storage
      self.properties = properties
      self.epoch = epoch
      self.type = type
    }
  }

  // The first object's entry, flattened into the list itself: the hot path compares
  // and updates these fields in place, without copying an entry (which would retain
  // and release its storage on every read).
  @usableFromInline var firstStorage: RegistrarStorage?
  /// The properties read of `firstStorage`'s object. Invariant: empty while
  /// `firstStorage` is `nil`.
  @usableFromInline var firstProperties = PropertySet()
  @usableFromInline var firstEpoch = 0
  @usableFromInline var firstOwnWrites = 0
  @usableFromInline var firstType: (any Trackable.Type)?
  /// The objects read after the first; `nil` until there is one (most scopes read one
  /// object). One optional for the entries and their index, so that ending such a
  /// scope releases neither: an array left in the scope, even empty, costs a release.
  @usableFromInline var others: OtherObjects?
  /// The scope this one is nested in, on this thread (for counting own writes).
  @usableFromInline var enclosing: UnsafeMutablePointer<AccessList>?
  /// The derived values a one-shot scope read, each once, with the version first read
  /// (see ``ComputationReads``), for a node run it may be nested in. A node's run
  /// records them in the graph instead, as it reads them (see ``node``).
  var computations = ComputationReads()
  /// The node whose run this scope is, when it is one (not a one-shot tracking): its
  /// reads go straight to its links in the graph, to the sources of the properties it
  /// reads (``RegistrarStorage/linkSource(_:type:by:first:)``) and to the computations
  /// (``Graph/recordRead(_:by:version:first:work:)``). Such a scope keeps, of what it
  /// read, only its first object and that object's properties, so that a read made
  /// again costs no call (``hasRead(in:_:_:)``); it installs no observer.
  var node: GraphRef?
  /// Whether this run made a read through its node's cursor (the first one starts it).
  var linked = false
  /// Something this run read changed before the run linked to it (a nested one-shot
  /// scope read it, or another thread changed a computation right after its pull): the
  /// run is stale already.
  var changedBeforeLink = false

  /// An empty scope. Inlinable: out of line, the scope was returned through a
  /// temporary and copied (`memcpy`) into the caller's variable at every tracking.
  @inlinable init() {}

  @inlinable package var isEmpty: Bool { firstStorage == nil }

  /// Deinitializes the scope at `scope`, in memory its caller owns, releasing only the
  /// references it holds. A run's scope mostly holds none (it read only computations)
  /// or one (it read one object, fewer than 64 of its properties): the value witness
  /// would call `swift_release` on every field that can hold a reference, `nil` ones
  /// included, through an outlined call.
  ///
  /// Invariant: the fields checked here are every stored property that can hold a
  /// reference besides `firstStorage`. A new one must be checked here too, or a scope
  /// holding it would leak it.
  @inline(__always)
  static func deinitialize(_ scope: UnsafeMutablePointer<AccessList>) {
    guard scope.pointee.others == nil, scope.pointee.computations.isEmpty,
      scope.pointee.firstProperties.spilled == nil
    else {
      scope.deinitialize(count: 1)
      return
    }
    if scope.pointee.firstStorage != nil { scope.pointee.firstStorage = nil }
  }

  /// Records a read of property `id` of the object owning `storage`.
  ///
  /// The first read of a property marks it read on the object (before the value is
  /// read: see ``RegistrarStorage``), and the first read of an object notes its change
  /// epoch.
  @usableFromInline
  mutating func record(_ storage: RegistrarStorage, _ id: Int, type: any Trackable.Type) {
    if let node { return recordSource(storage, id, type: type, node: node) }
    if firstStorage === storage {
      if firstProperties.insert(id) { storage.markRead(id) }
    } else if firstStorage == nil {
      storage.markRead(id)
      firstStorage = storage
      // Inserted, not assigned: the set is empty while `firstStorage` is `nil`, and an
      // assignment releases the old set's spill (a call, even for `nil`).
      firstProperties.insert(id)
      firstEpoch = storage.changeEpoch
      firstType = type
    } else {
      recordInOthers(storage, id, type: type)
    }
  }

  /// ``record(_:_:type:)`` in a node's run: links the node to the property's source.
  /// The first object's properties are kept, for ``hasRead(in:_:_:)``.
  private mutating func recordSource(_ storage: RegistrarStorage, _ id: Int, type: any Trackable.Type, node: GraphRef) {
    if firstStorage === storage {
      guard firstProperties.insert(id) else { return }
    } else if firstStorage == nil {
      firstStorage = storage
      firstProperties.insert(id)  // empty until now (see `record(_:_:type:)`)
    }
    storage.markRead(id)
    storage.linkSource(id, type: type, by: node, first: !linked)
    linked = true
  }

  private mutating func recordInOthers(_ storage: RegistrarStorage, _ id: Int, type: any Trackable.Type) {
    if let position = position(of: storage) {
      if others!.entries[position].properties.insert(id) { storage.markRead(id) }
      return
    }
    storage.markRead(id)
    append(Entry(storage: storage, properties: PropertySet(id), epoch: storage.changeEpoch, type: type))
  }

  /// Records a read of a derived value (property `id` of `computation`'s registrar,
  /// whose storage is `storage`) at `version`, in a one-shot tracking's scope (a node's
  /// run links to the computations it reads in the graph instead): the object, to
  /// install its observer there, and the computation, for a node run the scope may be
  /// nested in (see ``merge(_:)``).
  mutating func record(
    _ storage: RegistrarStorage, _ id: Int, type: any Trackable.Type, computation: Computation, version: UInt64
  ) {
    record(storage, id, type: type)
    computations.add(computation, version: version)
  }

  /// The position of `storage`'s entry in `others`. Inlined: a call out of line from a
  /// `mutating` method copied the whole scope (some 150 bytes, `memcpy`) to pass it.
  @inline(__always)
  private func position(of storage: RegistrarStorage) -> Int? {
    others?.position(of: storage)
  }

  @inline(__always)
  private mutating func append(_ entry: consuming Entry) {
    if others == nil {
      others = OtherObjects(entry)
    } else {
      others!.append(entry)
    }
  }

  /// Records a dependency on every property of the object owning `storage`.
  mutating func recordAll(_ storage: RegistrarStorage, type: any Trackable.Type) {
    storage.markAllRead()
    if let node {
      storage.linkSource(PropertySource.everyProperty, type: type, by: node, first: !linked)
      linked = true
      return
    }
    merge(Entry(storage: storage, properties: .all, epoch: storage.changeEpoch, type: type))
  }

  /// Adds one entry of an inner scope: an object this scope already read keeps its own
  /// epoch and own-write count (the inner scope's writes were counted here too), and
  /// gains the inner properties; a new object comes with the inner scope's epoch and
  /// count.
  private mutating func merge(_ entry: Entry) {
    if firstStorage === entry.storage {
      firstProperties.formUnion(entry.properties)
    } else if firstStorage == nil {
      firstStorage = entry.storage
      firstProperties = entry.properties
      firstEpoch = entry.epoch
      firstOwnWrites = entry.ownWrites
      firstType = entry.type
    } else if let position = position(of: entry.storage) {
      others!.entries[position].properties.formUnion(entry.properties)
    } else {
      append(entry)
    }
  }

  /// Adds an inner scope's reads to this one: an outer scope tracks what its nested
  /// scopes read, as Apple's does.
  ///
  /// A node's run links to what a nested one-shot scope read, after the fact (see
  /// ``linkObjects(of:from:)``).
  @usableFromInline
  mutating func merge(_ other: AccessList) {
    if let node {
      linkObjects(of: other, from: node)
      if !other.computations.isEmpty { linkComputations(other.computations, from: node) }
      return
    }
    other.forEach { merge($0) }
    if !other.computations.isEmpty { computations.merge(other.computations) }
  }

  /// Links this run's node to the properties a nested one-shot scope read: one that
  /// changed since that scope first read its object (by the object's change epoch, its
  /// own writes aside) makes the run stale. A derived value's registrar among them is
  /// the computation's, linked as one (``linkComputations(_:from:)``).
  private mutating func linkObjects(of other: AccessList, from node: GraphRef) {
    other.forEach { entry in
      if !other.computations.isEmpty && other.computations.containsStorage(entry.storage) { return }
      entry.storage.linkSources(entry.properties, type: entry.type, by: node, first: !linked)
      linked = true
      if entry.storage.changeEpoch &- entry.epoch > entry.ownWrites { changedBeforeLink = true }
    }
  }

  /// Links this run's node to computations a nested one-shot scope read, after the
  /// fact: one that changed since that read makes the run stale.
  private mutating func linkComputations(_ reads: ComputationReads, from node: GraphRef) {
    let thread = tracking_current_thread()
    var work = GraphWork()
    Graph.enter()
    reads.forEach { read in
      let dep = read.computation.graph
      Graph.recordRead(dep, by: node, version: read.version, first: !linked, work: &work)
      linked = true
      if dep.pointee.hasChanged(since: read.version, thread: thread) { changedBeforeLink = true }
    }
    Graph.leave()
    if !work.isEmpty { work.perform() }
  }

  /// Calls `body` with each object's storage and properties, without making entries.
  func forEachStorage(_ body: (RegistrarStorage, PropertySet) -> Void) {
    guard let firstStorage else { return }
    body(firstStorage, firstProperties)
    others?.entries.forEach { body($0.storage, $0.properties) }
  }

  func forEach(_ body: (Entry) -> Void) {
    guard let firstStorage, let firstType else { return }
    var first = Entry(storage: firstStorage, properties: firstProperties, epoch: firstEpoch, type: firstType)
    first.ownWrites = firstOwnWrites
    body(first)
    others?.entries.forEach(body)
  }

  /// Installs `observer` on every object this scope read. (The first object is used in
  /// place: making an entry for it would retain and release its storage.)
  ///
  /// `observer` must be new: installed by this call only, which first gives it the
  /// first object's properties as its shared bits, so that every object of which it
  /// watches those same properties can hold it without an entry (see
  /// ``RegistrarStorage/Observers``).
  @usableFromInline
  package func install(_ observer: TrackingObserver) {
    guard let firstStorage else { return }
    observer.shareBits(of: firstProperties)
    observer.stampInstallOrder()
    firstStorage.install(observer, properties: firstProperties)
    // Borrowed through the buffer: iterating the entries would copy each one (retaining
    // and releasing its storage).
    others?.entries.withUnsafeBufferPointer { entries in
      for index in entries.indices {
        Unmanaged.passUnretained(entries[index].storage)._withUnsafeGuaranteedRef {
          $0.install(observer, properties: entries[index].properties)
        }
      }
    }
  }

  /// Whether another thread changed an object this scope read, after the scope first
  /// read it. Call it after the scope's observer is installed (the order matters: see
  /// ``RegistrarStorage``). The scope's own writes do not count.
  ///
  /// The check is per object: a change of another property of an object the scope read
  /// counts too, so a rare race can report a change the scope did not depend on; it
  /// never misses one it did.
  @usableFromInline
  package func changedElsewhere() -> Bool {
    guard firstStorage != nil else { return false }
    if firstStorage.unsafelyUnwrapped.changeEpochAfterInstall &- firstEpoch > firstOwnWrites { return true }
    return others?.entries.withUnsafeBufferPointer { entries in
      entries.contains { $0.storage.changeEpoch &- $0.epoch > $0.ownWrites }
    } ?? false
  }

  /// Counts a write of the object owning `storage` as the own write of `scope` and of
  /// every scope it is nested in that read the object. Called by the writing thread.
  static func countOwnWrite(of storage: RegistrarStorage, from scope: UnsafeMutablePointer<AccessList>) {
    var current: UnsafeMutablePointer<AccessList>? = scope
    while let list = current {
      list.pointee.countOwnWrite(of: storage)
      current = list.pointee.enclosing
    }
  }

  /// Whether a tracking scope open on this thread (the current one, or one it is
  /// nested in) read the object owning `storage`: a change of it made now is that
  /// scope's own.
  static func currentScopesRead(_ storage: RegistrarStorage) -> Bool {
    var current = CurrentScope.accessList
    while let list = current {
      if list.pointee.firstStorage === storage || list.pointee.position(of: storage) != nil { return true }
      current = list.pointee.enclosing
    }
    return false
  }

  private mutating func countOwnWrite(of storage: RegistrarStorage) {
    if firstStorage === storage {
      firstOwnWrites += 1
    } else if let position = position(of: storage) {
      others!.entries[position].ownWrites += 1
    }
  }

  // MARK: The current scope

  /// Whether the scope `scope` has read property `id` of its first object already (a
  /// loop, or a value read in several places): then the read has nothing to record.
  /// One comparison and one bit test, inlined into the read itself (see
  /// ``TrackingRegistrar``'s `recordAccess`), before the call to
  /// ``record(into:_:_:type:)``.
  @inlinable @inline(__always)
  static func hasRead(in scope: UnsafeMutableRawPointer, _ storage: RegistrarStorage, _ id: Int) -> Bool {
    let list = scope.assumingMemoryBound(to: AccessList.self)
    // Compared as words: `===` on the optional tests it for `nil` first, and set two
    // flags to combine the tests: five instructions more on every read made again
    // (`storage` is never `nil`).
    let first = unsafeBitCast(list.pointee.firstStorage, to: UInt.self)
    return first == UInt(bitPattern: Unmanaged.passUnretained(storage).toOpaque())
      && list.pointee.firstProperties.hasBit(id)
  }

  /// Records a read into the scope that is current on this thread, which has not made
  /// it yet (``hasRead(in:_:_:)``). Kept out of line: the part of the read inlined at
  /// its call site is the thread-local load and that test.
  @usableFromInline @inline(never)
  static func record(
    into scope: UnsafeMutableRawPointer, _ storage: RegistrarStorage, _ id: Int, type: any Trackable.Type
  ) {
    scope.assumingMemoryBound(to: AccessList.self).pointee.record(storage, id, type: type)
  }

  /// Runs `body` with a fresh scope as the thread's current one and returns what it
  /// read. On the way out the reads are also merged into the enclosing scope, if any.
  @inlinable
  package static func collect<T, Failure: Error>(
    _ body: () throws(Failure) -> T
  ) throws(Failure) -> (T, AccessList) {
    var list = AccessList()
    let result = try collect(into: &list, body)
    return (result, list)
  }

  /// ``collect(_:)`` into the caller's fresh `list`, which stays in place: returned in
  /// a tuple, the list (some 150 bytes) is copied out with `memcpy`, and again when it
  /// is handed to a function that is not inlined. Always inlined: left to the
  /// optimizer, a slightly larger tracked read inlined into `body` was enough to leave
  /// it out of line in the render-graph row, with a retain and a release of the body's
  /// context per tracking (`graph.frame`, +4 %).
  @inlinable @inline(__always)
  package static func collect<T, Failure: Error>(
    into list: inout AccessList, _ body: () throws(Failure) -> T
  ) throws(Failure) -> T {
    let enclosing = CurrentScope.accessList
    list.enclosing = enclosing
    let result = try withUnsafeMutablePointer(to: &list) { (pointer) throws(Failure) -> T in
      defer { enclosing?.pointee.merge(pointer.pointee) }
      return try CurrentScope.with(UnsafeMutableRawPointer(pointer), body)
    }
    list.enclosing = nil
    return result
  }

  /// Runs `body` with `list` as the thread's current scope, isolated from any enclosing
  /// one (its reads are not merged there), and returns `body`'s value.
  ///
  /// For generic callers (``Derived``): ``collect(_:)`` returns a tuple, and in code
  /// that is not specialized a tuple holding a generic value costs a metadata lookup
  /// per call.
  @inlinable
  package static func collectIsolated<T>(into list: inout AccessList, _ body: () -> T) -> T {
    withUnsafeMutablePointer(to: &list) { pointer in
      CurrentScope.with(UnsafeMutableRawPointer(pointer), body)
    }
  }

  /// Runs `body` with no current scope, so that its reads are not recorded anywhere.
  static func withoutTracking<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
    try CurrentScope.with(nil, body)
  }
}
