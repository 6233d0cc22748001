/// Walks the reactive graph from nodes and objects and collects a ``TrackingGraph``.
///
/// Upwards, from a node: the objects its latest run read (its links to their
/// properties' sources) and the computations it read, transitively. Downwards, from an
/// object: the nodes subscribed to its properties' sources; from a computation: its
/// subscribers in the graph;
/// transitively. Each node's state is read
/// under its lock, one node at a time.
struct TrackingGraphBuilder {
  private var nodes: [TrackingGraph.Node] = []
  private var edges: [TrackingGraph.Edge] = []
  /// The edges added, to add each once: an object's dependents are met from both ends.
  private var addedEdges: Set<TrackingGraph.Edge> = []
  /// The snapshot's identifier of each node and object storage met, by address.
  private var ids: [ObjectIdentifier: String] = [:]
  private var visitedUp: Set<ObjectIdentifier> = []
  private var visitedDown: Set<ObjectIdentifier> = []
  private var counts: [TrackingGraph.Node.Kind: Int] = [:]

  var graph: TrackingGraph { TrackingGraph(nodes: nodes, edges: edges) }

  /// The registrar storage of a tracked object, found by reflection (the macro keeps it
  /// private): introspection only.
  static func storage(of object: some Trackable) -> RegistrarStorage? {
    for child in Mirror(reflecting: object).children {
      if let registrar = child.value as? TrackingRegistrar { return registrar.storage }
    }
    return nil
  }

  /// Adds `node`, then what it reads (`up`) and what reads it (`down`), transitively.
  mutating func addNode(_ node: ReactiveNode, up: Bool, down: Bool) {
    var pendingUp: [ReactiveNode] = up ? [node] : []
    var pendingDown: [ReactiveNode] = down ? [node] : []
    _ = id(of: node)
    while let next = pendingUp.popLast() {
      guard visitedUp.insert(ObjectIdentifier(next)).inserted else { continue }
      pendingUp += addSources(of: next)
    }
    while let next = pendingDown.popLast() {
      guard visitedDown.insert(ObjectIdentifier(next)).inserted else { continue }
      guard let computation = next as? Computation else { continue }
      pendingDown += addReaders(of: computation)
    }
  }

  /// Adds an object and, with `down`, what reads it, transitively.
  mutating func addObject(_ storage: RegistrarStorage, type: any Trackable.Type, down: Bool) {
    let objectID = id(ofObject: ObjectIdentifier(storage), type: type)
    guard down else { return }
    var pending = addDependents(of: storage, id: objectID, type: type)
    while let next = pending.popLast() {
      guard visitedDown.insert(ObjectIdentifier(next)).inserted else { continue }
      _ = addSources(of: next)
      guard let computation = next as? Computation else { continue }
      pending += addReaders(of: computation)
    }
  }

  /// Adds the edges from what `node`'s latest run read; returns the computations read.
  private mutating func addSources(of node: ReactiveNode) -> [ReactiveNode] {
    let (sources, computations) = Graph.withLock {
      (Graph.sources(of: node.graph), Graph.dependencies(of: node.graph))
    }
    let dependent = id(of: node)
    for (object, type, properties) in sources {
      // A deallocated object is left out: nothing of it is left to show.
      guard let object else { continue }
      add(.init(source: id(ofObject: object, type: type), dependent: dependent, properties: names(properties, type)))
    }
    var read: [ReactiveNode] = []
    for input in computations {
      add(.init(source: id(of: input.computation), dependent: dependent, properties: ["value"]))
      read.append(input.computation)
    }
    return read
  }

  /// Adds the edges to `computation`'s subscribers; returns those nodes.
  private mutating func addReaders(of computation: Computation) -> [ReactiveNode] {
    let source = id(of: computation)
    var found: [ReactiveNode] = []
    for node in computation.readers {
      add(.init(source: source, dependent: id(of: node), properties: ["value"]))
      found.append(node)
    }
    return found
  }

  /// Adds the edges to the nodes installed on `storage`, an object of `type`; returns
  /// those nodes.
  private mutating func addDependents(
    of storage: RegistrarStorage, id source: String, type: any Trackable.Type
  ) -> [ReactiveNode] {
    var found: [ReactiveNode] = []
    for (node, properties) in storage.nodeReaders() {
      add(.init(source: source, dependent: id(of: node), properties: names(properties, type)))
      found.append(node)
    }
    return found
  }

  /// Adds `edge` unless it is there already.
  private mutating func add(_ edge: TrackingGraph.Edge) {
    if addedEdges.insert(edge).inserted { edges.append(edge) }
  }

  private func names(_ properties: PropertySet, _ type: any Trackable.Type) -> [String] {
    var result = properties.identifiers.map { id in type.trackedPropertyName(id) ?? "#\(id)" }
    if properties.includesAll { result.append("*") }
    return result
  }

  private mutating func id(of node: ReactiveNode) -> String {
    if let id = ids[ObjectIdentifier(node)] { return id }
    let kind: TrackingGraph.Node.Kind = node is Computation ? .derived : .observation
    let number = (counts[kind] ?? 0) + 1
    counts[kind] = number
    let id = (kind == .derived ? "d" : "r") + "\(number)"
    let name = node.state.withLock { $0.name }
    let label = name ?? (node as? Computation)?.typeName ?? "observation \(number)"
    ids[ObjectIdentifier(node)] = id
    nodes.append(.init(id: id, kind: kind, label: label))
    return id
  }

  private mutating func id(ofObject object: ObjectIdentifier, type: any Trackable.Type) -> String {
    if let id = ids[object] { return id }
    let number = (counts[.object] ?? 0) + 1
    counts[.object] = number
    let id = "o\(number)"
    ids[object] = id
    nodes.append(.init(id: id, kind: .object, label: String(describing: type)))
    return id
  }
}
