/// A snapshot of the reactive graph, or of the part of it around one observation,
/// derived value or tracked object: what reads what, for looking at while developing.
///
/// ```swift
/// let graph = TrackingGraph.around(token)
/// print(graph.mermaid)     // a Mermaid flowchart, for a Markdown file or a pull request
/// print(graph.dot)         // Graphviz: dot -Tsvg graph.dot > graph.svg
/// graph.sources(of: graph.nodes[0].id)
/// ```
///
/// Nodes are tracked objects (named by their type), derived values and observations
/// (named by ``Derived/name`` and ``TrackingToken/name``, or by their kind); an edge
/// goes from what is read to what reads it, labelled with the properties read. A
/// snapshot is a value: it keeps nothing alive and does not change afterwards. Taking
/// one locks each node it visits briefly, one at a time; it never runs a closure.
///
/// ``current()`` shows every observation and derived value made while
/// ``TrackingIntrospection`` is on; the `around` forms need no switch.
public struct TrackingGraph: Sendable, CustomStringConvertible {
  /// A tracked object, a derived value or an observation.
  public struct Node: Hashable, Sendable, Identifiable {
    public enum Kind: String, Hashable, Sendable {
      /// A `@Trackable` object (its tracked properties are the sources).
      case object
      /// A ``Derived`` value.
      case derived
      /// A continuous observation, sequence, render-loop component or publisher.
      case observation
    }

    /// Unique within the snapshot: `o1`, `d1`, `r1`, …
    public let id: String
    public let kind: Kind
    /// What the node is called in pictures.
    public let label: String
  }

  /// One dependency: `dependent` read `properties` of `source`.
  public struct Edge: Hashable, Sendable {
    /// The node read.
    public let source: Node.ID
    /// The node that read it.
    public let dependent: Node.ID
    /// The properties read, by name (`value` for a derived value).
    public let properties: [String]
  }

  /// The nodes, in the order they were found.
  public let nodes: [Node]
  /// The dependencies between them.
  public let edges: [Edge]

  /// The nodes that `id` reads.
  public func sources(of id: Node.ID) -> [Node] {
    let ids = Set(edges.filter { $0.dependent == id }.map(\.source))
    return nodes.filter { ids.contains($0.id) }
  }

  /// The nodes that read `id`.
  public func dependents(of id: Node.ID) -> [Node] {
    let ids = Set(edges.filter { $0.source == id }.map(\.dependent))
    return nodes.filter { ids.contains($0.id) }
  }

  /// Every observation and derived value made while ``TrackingIntrospection`` is on and
  /// still alive, with everything they read. Empty when introspection was never on.
  public static func current() -> TrackingGraph {
    var builder = TrackingGraphBuilder()
    for node in Introspection.liveNodes { builder.addNode(node, up: true, down: false) }
    return builder.graph
  }

  /// What the observation kept alive by `token` reads, transitively.
  public static func around(_ token: TrackingToken) -> TrackingGraph {
    var builder = TrackingGraphBuilder()
    if let reaction = token.reaction { builder.addNode(reaction, up: true, down: true) }
    return builder.graph
  }

  /// What `derived` reads and what reads it, transitively.
  public static func around<Value>(_ derived: Derived<Value>) -> TrackingGraph {
    var builder = TrackingGraphBuilder()
    builder.addNode(derived.node, up: true, down: true)
    return builder.graph
  }

  /// What reads `object`'s tracked properties, transitively (and what those read).
  public static func around(_ object: some Trackable) -> TrackingGraph {
    var builder = TrackingGraphBuilder()
    if let storage = TrackingGraphBuilder.storage(of: object) {
      builder.addObject(storage, type: type(of: object), down: true)
    }
    return builder.graph
  }

  /// Nodes and edges, one per line.
  public var description: String {
    let labels = Dictionary(uniqueKeysWithValues: nodes.map { ($0.id, $0.label) })
    let lines = edges.map { edge in
      "\(labels[edge.source] ?? edge.source) → \(labels[edge.dependent] ?? edge.dependent) (\(edge.properties.joined(separator: ", ")))"
    }
    return (["TrackingGraph: \(nodes.count) nodes, \(edges.count) dependencies"] + lines).joined(separator: "\n")
  }
}
