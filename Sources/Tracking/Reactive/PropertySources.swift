import CTrackingSupport

/// A tracked property of one object, as a node of the reactive graph: what a derived
/// value or a reaction that read the property links to, and what a write of it
/// propagates from.
///
/// **Made on demand.** An object's registrar storage makes the source of a property the
/// first time a node's run reads it (``RegistrarStorage/linkSource(_:type:by:first:)``), and
/// keeps it in its ``SourceTable`` for as long as the object lives; one-shot trackings
/// do not use sources (they install observers, see ``RegistrarStorage``). A whole-object
/// read has one source of its own (``everyProperty``), which every write reaches.
///
/// **Reads and writes.** A node's run that reads the property makes or keeps its link to
/// the source in the same critical section of the graph lock, with the source's version,
/// before the value is read; a write moves the version and marks the subscribers in
/// its did-set (``Graph/propagateWrite(from:thread:work:)``). So a change made after
/// the read is never lost, and a run needs no observer and no comparison of what it
/// read at its end: its links are what it depends on.
///
/// **Lifetime.** The table holds the source, and so does each link that names it. When
/// the object is deallocated its storage *detaches* its sources
/// (``RegistrarStorage/detachSources(_:)``): their `sourceStorage` is cleared, so that
/// no run takes an object made later at the same address for this one, and the
/// reactions that read them hear of the deallocation. A detached source lives on, never
/// written again, until the runs that linked to it read something else or end.
final class PropertySource: ManagedBuffer<PropertySource.Fields, GraphNode> {
  // One allocation: the source's graph node is the buffer's element, after its fields.

  /// The property's number for a whole-object read.
  static let everyProperty = -1

  struct Fields {
    /// The object's type, for naming the property (introspection).
    let type: any Trackable.Type
    /// The storage's handle, when the property has observed/unobserved hooks: its
    /// subscribers' comings and goings are told to the hooks through it. Under the
    /// graph lock.
    var hooks: StorageHandle?
  }

  /// A new source of property `id` of the object whose registrar storage is `storage`.
  static func make(storage: RegistrarStorage, id: Int, type: any Trackable.Type) -> PropertySource {
    let buffer = create(minimumCapacity: 1) { _ in Fields(type: type, hooks: nil) }
    let source = unsafeDowncast(buffer, to: PropertySource.self)
    source.graph.initialize(
      to: GraphNode(source: source, storage: Unmanaged.passUnretained(storage).toOpaque(), id: id))
    return source
  }

  deinit {
    // No link names the source any more (a link holds it), and no walk has it pinned:
    // pulls pin only computations. (The fields go with the buffer.)
    graph.deinitialize(count: 1)
  }

  /// The source's place in the graph, in the source's memory.
  @inline(__always) var graph: GraphRef { withUnsafeMutablePointerToElements { $0 } }

  /// The object's type, for naming the property (introspection).
  var type: any Trackable.Type { withUnsafeMutablePointerToHeader { $0.pointee.type } }

  /// The storage's handle, when the property has observed/unobserved hooks. Under the
  /// graph lock.
  var hooks: StorageHandle? {
    get { withUnsafeMutablePointerToHeader { $0.pointee.hooks } }
    set { withUnsafeMutablePointerToHeader { $0.pointee.hooks = newValue } }
  }

  /// The property's number.
  var id: Int { Int(graph.pointee.sourceID) }
}

/// The sources of one object's properties (see ``PropertySource``), in its storage's
/// extras (in their memory), under the storage's lock. Reached by pointer, as plain
/// pointers to the sources' graph nodes: a write finds its property's source without a
/// retain or an exclusivity check. Few per object: a short list, indexed once it grows.
struct SourceTable {
  typealias Ref = UnsafeMutablePointer<SourceTable>

  /// The graph nodes of the first two property sources: most objects have no more
  /// (a row read for its title and its state).
  private var first: GraphRef?
  private var second: GraphRef?
  /// The nodes of the sources after the first two, in memory of the table's own;
  /// `nil` until there is a third.
  private var more: UnsafeMutablePointer<GraphRef>?
  private var moreCount = 0
  private var moreCapacity = 0
  /// Every property source's node by number, past ``indexThreshold`` sources.
  private var index: [Int: GraphRef]?
  /// The whole-object read's source.
  private(set) var every: GraphRef?
  /// The properties that have a source: part of the storage's observed mask, so that a
  /// write of them reaches the did-set (see ``RegistrarStorage/publish(_:_:)``). Sources
  /// stay until the object goes, so this only grows.
  private(set) var masks = RegistrarStorage.Masks()
  // The table holds a reference to each source, its node's owner (released in
  // `releaseSources(of:)`).

  /// Past this many sources, they are found through a dictionary.
  private static let indexThreshold = 8

  /// Releases the table's sources (a source lives on while a link names it) and frees
  /// the memory it allocated; the table's own memory is its owner's (the storage's
  /// extras).
  static func releaseSources(of table: Ref) {
    table.pointee.forEach { $0.pointee.owner.release() }
    table.pointee.more?.deallocate()
  }

  /// The source of property `id`, if it has one.
  @inline(__always)
  func source(_ id: Int) -> GraphRef? {
    if id == PropertySource.everyProperty { return every }
    let number = Int32(truncatingIfNeeded: id)
    if let first, first.pointee.sourceID == number { return first }
    if let second, second.pointee.sourceID == number { return second }
    guard let more else { return nil }
    if let index { return index[id] }
    for position in 0..<moreCount where more[position].pointee.sourceID == number { return more[position] }
    return nil
  }

  /// The source of property `id`, made if it has none (under the storage's lock), and
  /// whether it was made now.
  mutating func source(_ id: Int, of storage: RegistrarStorage, type: any Trackable.Type) -> (GraphRef, isNew: Bool) {
    if let source = source(id) { return (source, false) }
    let source = PropertySource.make(storage: storage, id: id, type: type)
    _ = Unmanaged.passRetained(source)
    let node = source.graph
    if id == PropertySource.everyProperty {
      every = node
      masks.observed = -1
      return (node, true)
    }
    masks.observed |= RegistrarStorage.maskBit(id)
    if first == nil {
      first = node
    } else if second == nil {
      second = node
    } else {
      if moreCount == moreCapacity {
        let grown = UnsafeMutablePointer<GraphRef>.allocate(capacity: Swift.max(4, 2 * moreCapacity))
        if let more {
          grown.moveInitialize(from: more, count: moreCount)
          more.deallocate()
        }
        more = grown
        moreCapacity = Swift.max(4, 2 * moreCapacity)
      }
      more.unsafelyUnwrapped[moreCount] = node
      moreCount += 1
    }
    if index != nil {
      index![id] = node
    } else if 2 + moreCount > Self.indexThreshold {
      var built: [Int: GraphRef] = [:]
      forEach { if $0 != every { built[Int($0.pointee.sourceID)] = $0 } }
      index = built
    }
    return (node, true)
  }

  /// Notes that a node that hears will-sets subscribes to property `id`: its will-set
  /// must then look at the source's subscribers.
  mutating func notesWillSetHearer(of id: Int) {
    masks.willSet |= id == PropertySource.everyProperty ? -1 : RegistrarStorage.willSetBit(id)
  }

  /// Calls `body` with each source's graph node, the whole-object one last.
  func forEach(_ body: (GraphRef) -> Void) {
    if let first { body(first) }
    if let second { body(second) }
    if let more { for position in 0..<moreCount { body(more[position]) } }
    if let every { body(every) }
  }
}

extension GraphNode {
  /// The ``PropertySource`` of a source's node.
  var propertySource: PropertySource { unsafeDowncast(owner.takeUnretainedValue(), to: PropertySource.self) }
}

extension RegistrarStorage {
  /// Links `node`'s run under way to the source of property `id` (made if the property
  /// has none), read now, before the value is: the one place a node's run reads a
  /// tracked property. The cursor over the run's links expects the read most of the
  /// time: then only the graph lock is taken, and the source is not looked up.
  @inline(__always)
  func linkSource(_ id: Int, type: any Trackable.Type, by node: GraphRef, first: Bool) {
    let storage = Unmanaged.passUnretained(self).toOpaque()
    Graph.enter()
    if Graph.recordExpectedSourceRead(storage, id, by: node, first: first) {
      Graph.leave()
      return
    }
    Graph.leave()
    linkNewSource(id, type: type, by: node, first: first)
  }

  /// ``linkSource(_:type:by:first:)`` when the cursor did not expect the read: the source
  /// is looked up (or made) under the storage's lock, and linked with the graph lock
  /// taken inside it (the lock order).
  @inline(never)
  private func linkNewSource(_ id: Int, type: any Trackable.Type, by node: GraphRef, first: Bool) {
    var work = GraphWork()
    let isNew = withLock { state -> Bool in
      let extras = state.extrasCreatingIfNeeded()
      let table = extras.usingSources()
      let (source, isNew) = table.pointee.source(id, of: self, type: type)
      let hearsWillSet = node.pointee.hearsWillSet
      if hearsWillSet { table.pointee.notesWillSetHearer(of: id) }
      Graph.enter()
      if isNew, let hooks = extras.hooks, hooks.hooks(id) {
        let handle = extras.handle ?? StorageHandle(self)
        extras.handle = handle
        source.pointee.hooked = true
        source.pointee.propertySource.hooks = handle
      }
      Graph.recordRead(source, by: node, version: source.pointee.version, first: first, work: &work)
      Graph.leave()
      if isNew || hearsWillSet { publishSources(table.pointee) }
      return isNew
    }
    // A new source's bit is published before the value is read, and a write moves the
    // change epoch before it looks at the mask: one of the two sees the other (see the
    // storage's discussion of orders).
    if isNew { tracking_atomic_fence_seq_cst() }
    if !work.isEmpty { work.perform() }
  }

  /// Links `node`'s run to the sources of `properties` (a one-shot scope nested in the
  /// run read them; see ``AccessList/merge(_:)``).
  func linkSources(_ properties: PropertySet, type: any Trackable.Type, by node: GraphRef, first: Bool) {
    var first = first
    if properties.includesAll {
      linkSource(PropertySource.everyProperty, type: type, by: node, first: first)
      first = false
    }
    for id in properties.identifiers {
      linkSource(id, type: type, by: node, first: first)
      first = false
    }
  }

  /// A write's part in the graph, under the storage's lock (with `state` its state):
  /// moves the version of property `id`'s source and of the whole-object source, and
  /// marks their subscribers (``Graph/propagateWrite(from:thread:work:)``); what must
  /// be called once the locks are left goes into `work`.
  @inline(__always)
  func markSources(_ id: Int, _ state: borrowing State, work: inout GraphWork) {
    guard let table = state.extras?.sources else { return }
    let source = table.pointee.source(id)
    let every = table.pointee.every
    guard source != nil || every != nil else { return }
    let thread = tracking_current_thread()
    Graph.enter()
    if let source { Graph.propagateWrite(from: source, thread: thread, work: &work) }
    if let every { Graph.propagateWrite(from: every, thread: thread, work: &work) }
    Graph.leave()
  }

  /// A will-set's part in the graph, under the storage's lock: the subscribers of
  /// property `id`'s sources that hear will-sets, to tell once the locks are left.
  @inline(__always)
  func willSetHearers(_ id: Int, _ state: borrowing State, into work: inout GraphWork) {
    guard let table = state.extras?.sources else { return }
    let source = table.pointee.source(id)
    let every = table.pointee.every
    guard source != nil || every != nil else { return }
    Graph.enter()
    if let source { Graph.collectWillSetHearers(of: source, work: &work) }
    if let every { Graph.collectWillSetHearers(of: every, work: &work) }
    Graph.leave()
  }

  /// The object is being deallocated: its sources are detached (see
  /// ``PropertySource``), and the reactions that read them hear of it, each once.
  /// From the storage's deinit: nothing else can reach the storage.
  func detachSources(_ table: SourceTable.Ref) {
    var told: [ReactiveNode] = []
    var seen = Set<UnsafeMutableRawPointer>()
    Graph.enter()
    table.pointee.forEach { source in
      source.pointee.sourceStorage = nil
      source.pointee.propertySource.hooks = nil
      var link = source.pointee.subs
      while let current = link {
        link = current.pointee.nextSub
        let sub = current.pointee.sub
        guard sub.pointee.kind == .reaction, seen.insert(UnsafeMutableRawPointer(sub)).inserted else { continue }
        told.append(sub.pointee.node)
      }
    }
    Graph.leave()
    for node in told { node.sourceDeallocated() }
  }

  /// Tells the hooks of the properties whose sources gained their first subscriber or
  /// lost their last (``PropertySource/hooks``): the sources are looked at as they are
  /// now, under the storage's lock and the graph lock inside it, so that these calls
  /// may come in any order.
  func settleSourceHooks() {
    let transitions = withLock { state -> HookTable.Transitions? in
      guard let hooks = state.extras?.hooks else { return nil }
      refreshObservedSources(hooks, state)
      return HookTable.settle(state)
    }
    transitions?.deliver()
  }

  /// Brings `hooks`' view of the sources' subscribers up to date (under the storage's
  /// lock): a hooked property is observed elsewhere while its source, or the whole
  /// object's, has a subscriber.
  func refreshObservedSources(_ hooks: HookTable, _ state: borrowing State) {
    guard let table = state.extras?.sources else { return }
    let handle = state.extras?.handle
    Graph.enter()
    let every = table.pointee.every
    let everyObserved = every.map { $0.pointee.subs != nil } ?? false
    for id in hooks.hookedIDs {
      let source = table.pointee.source(id)
      if let source, !source.pointee.hooked {
        source.pointee.hooked = true
        source.pointee.propertySource.hooks = handle
      }
      hooks.setObservedElsewhere(id, everyObserved || source.map { $0.pointee.subs != nil } ?? false)
    }
    if let every, !every.pointee.hooked {
      every.pointee.hooked = true
      every.pointee.propertySource.hooks = handle
    }
    Graph.leave()
  }

  /// The nodes whose latest run read a property of this object, with the properties
  /// each read (introspection).
  func nodeReaders() -> [(node: ReactiveNode, properties: PropertySet)] {
    var readers: [(node: ReactiveNode, properties: PropertySet)] = []
    var positions: [ObjectIdentifier: Int] = [:]
    withLock { state in
      guard let table = state.extras?.sources else { return }
      Graph.enter()
      table.pointee.forEach { source in
        let id = Int(source.pointee.sourceID)
        let properties = id == PropertySource.everyProperty ? PropertySet.all : PropertySet(id)
        var link = source.pointee.subs
        while let current = link {
          link = current.pointee.nextSub
          let node = current.pointee.sub.pointee.node
          if let position = positions[ObjectIdentifier(node)] {
            readers[position].properties.formUnion(properties)
          } else {
            positions[ObjectIdentifier(node)] = readers.count
            readers.append((node, properties))
          }
        }
      }
      Graph.leave()
    }
    return readers
  }
}
