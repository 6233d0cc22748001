import CTrackingSupport

/// The runtime side of ``TrackingIntrospection``: whether it is on, and the registry of
/// live nodes it keeps while it is.
enum Introspection {
  /// The bit of the runtime's switch word (shared with ``TrackingInterop``'s switches)
  /// that says introspection is on.
  static let bit = 8

  /// Whether introspection is on: then nodes register themselves and keep the causes of
  /// their runs. Off, both cost one relaxed load.
  @inline(__always)
  static var isOn: Bool { tracking_interop_flags() & bit != 0 }

  static func setOn(_ on: Bool) { tracking_interop_set_flag(bit, on) }

  static func register(_ node: ReactiveNode) {
    guard _slowPath(isOn) else { return }
    registry.withLock { registry in
      registry.count += 1
      registry.nodes[ObjectIdentifier(node)] = WeakNode(node: node, order: registry.count)
    }
  }

  static func unregister(_ node: ReactiveNode) {
    guard node.introspects else { return }
    registry.withLock { _ = $0.nodes.removeValue(forKey: ObjectIdentifier(node)) }
  }

  /// The nodes made while introspection was on and still alive, oldest first.
  static var liveNodes: [ReactiveNode] {
    registry.withLock { registry in
      registry.nodes.values.sorted { $0.order < $1.order }.compactMap(\.node)
    }
  }

  private struct Registry {
    var nodes: [ObjectIdentifier: WeakNode] = [:]
    var count = 0
  }

  private static let registry = Locked(Registry())

  private struct WeakNode {
    weak var node: ReactiveNode?
    let order: Int
  }
}

/// Why a node ran last, and why it will run next: the changes it heard (kept only
/// while introspection is on).
///
/// One entry per property of an object, however many times it changes before the run:
/// its value before the first change and after the latest. So what a node keeps is
/// bounded by what its run read, even if it waits long for its next run (a sequence
/// nobody iterates, a run scheduled on a busy actor) while the property keeps changing.
struct RunCauses {
  /// The changes heard since the latest run began, in the order their properties first
  /// changed.
  var next: [TrackingChange] = []
  /// The changes that caused the latest run.
  var last: [TrackingChange] = []

  /// Adds a change. A will-set of a property already listed adds nothing (the old
  /// value listed is older); a did-set completes the entry of its property with the new
  /// value.
  mutating func heard(_ change: TrackingChange) {
    guard let index = next.lastIndex(where: { $0.isChange(ofSamePropertyAs: change) }) else {
      next.append(change)
      return
    }
    if change.kind == .didSet { next[index] = next[index].completed(by: change) }
  }

  mutating func beginRun() {
    guard !next.isEmpty || !last.isEmpty else { return }
    last = next
    next = []
  }
}

extension TrackingChange {
  /// A change as a node hears it: `change` describes it, and its value is read now
  /// (on the mutating thread, while the change is delivered).
  init(_ kind: TrackingEvent.Kind, _ change: ChangeDescription) {
    let site = change.site
    let value = change.source?.valueDescription
    self.init(
      kind: kind, objectType: site?.objectType, propertyName: site?.propertyName,
      oldValue: kind == .willSet ? value : nil, newValue: kind == .didSet ? value : nil, object: site?.objectID)
  }

  /// Whether both are a will-set or a did-set of the same property of the same object.
  func isChange(ofSamePropertyAs other: TrackingChange) -> Bool {
    kind != .deinit && other.kind != .deinit && object != nil && object == other.object
      && propertyName == other.propertyName
  }

  func completed(by didSet: TrackingChange) -> TrackingChange {
    TrackingChange(
      kind: .didSet, objectType: objectType, propertyName: propertyName, oldValue: oldValue,
      newValue: didSet.newValue, object: object)
  }
}

extension ReactiveNode {
  /// Records a change this node heard, for ``TrackingToken/lastRunCauses`` (nodes made
  /// while introspection is on).
  final func recordCause(_ kind: TrackingEvent.Kind, _ change: ChangeDescription) {
    guard introspects, Introspection.isOn else { return }
    let cause = TrackingChange(kind, change)
    state.withLock { $0.causes.heard(cause) }
  }
}

/// What the graph shows of a node when asked: a token's dependencies, a derived value's
/// readers, and every node's sources and dependencies for a ``TrackingGraph``. Called
/// with the graph lock held, like everything in ``Graph``; nothing on a write's or a
/// run's path.
extension Graph {
  /// The nodes subscribed to `computation` (introspection).
  static func subscribers(of computation: GraphRef) -> [ReactiveNode] {
    var nodes: [ReactiveNode] = []
    var link = computation.pointee.subs
    while let current = link {
      nodes.append(current.pointee.sub.pointee.node)
      link = current.pointee.nextSub
    }
    return nodes
  }

  /// The computations `node`'s latest run read, with the versions it saw, retained for
  /// use once the lock is left.
  static func dependencies(of node: GraphRef) -> [(computation: Computation, version: UInt64)] {
    var reads: [(computation: Computation, version: UInt64)] = []
    // Retired, it observes nothing (its links wait for its next run).
    guard !node.pointee.retired else { return reads }
    var link = node.pointee.deps
    while let current = link {
      if current.pointee.dep.pointee.isComputation {
        reads.append((current.pointee.dep.pointee.computation, current.pointee.version))
      }
      link = current.pointee.nextDep
    }
    return reads
  }

  /// The tracked properties `node`'s latest run read, in order: each source's object
  /// (by its storage's address; `nil` once deallocated), type and property
  /// (introspection).
  static func sources(of node: GraphRef)
    -> [(object: ObjectIdentifier?, type: any Trackable.Type, properties: PropertySet)]
  {
    var reads: [(object: ObjectIdentifier?, type: any Trackable.Type, properties: PropertySet)] = []
    guard !node.pointee.retired else { return reads }
    var link = node.pointee.deps
    while let current = link {
      let dep = current.pointee.dep
      if dep.pointee.isSource {
        let source = unsafeDowncast(dep.pointee.owner.takeUnretainedValue(), to: PropertySource.self)
        // By address: the storage may be in its deinit, waiting for the lock to detach.
        let object = dep.pointee.sourceStorage.map { unsafeBitCast($0, to: ObjectIdentifier.self) }
        let id = Int(dep.pointee.sourceID)
        let properties = id == PropertySource.everyProperty ? PropertySet.all : PropertySet(id)
        if let index = reads.firstIndex(where: { $0.object != nil && $0.object == object }) {
          reads[index].properties.formUnion(properties)
        } else {
          reads.append((object, source.type, properties))
        }
      }
      link = current.pointee.nextDep
    }
    return reads
  }
}
