import Testing
@_spi(Testing) import Tracking

/// A model for the graph tests: an order, what it costs, and who shows it.
@Trackable private final class GraphOrder: @unchecked Sendable {
  var prices: [Int] = [4, 6]
  var coupon = 0
  var customer = "Ada"
}

/// The subtotal, the total (which reads the subtotal and the coupon) and a receipt
/// (which reads the total and the customer), named as the graph shows them.
private struct Receipt {
  let order = GraphOrder()
  let subtotal: Derived<Int>
  let total: Derived<Int>
  let token: TrackingToken

  init() {
    let order = order
    let subtotal = Derived { order.prices.reduce(0, +) }
    subtotal.name = "subtotal"
    let total = Derived { max(0, subtotal.value - order.coupon) }
    total.name = "total"
    token = observe { _ = (order.customer, total.value) }
    token.name = "receipt"
    self.subtotal = subtotal
    self.total = total
  }
}

/// `TrackingGraph`: snapshots around an observation, a derived value or an object, the
/// queries on them, and their exports. None of them needs introspection on.
@Suite("The reactive graph's snapshots")
struct TrackingGraphTests {
  /// Every dependency of the receipt's graph, as ``edges(_:)`` lists them.
  private let receiptEdges = [
    "GraphOrder → receipt (customer)",
    "GraphOrder → subtotal (prices)",
    "GraphOrder → total (coupon)",
    "subtotal → total (value)",
    "total → receipt (value)",
  ]

  /// Labels of nodes, for comparing without the snapshot's identifiers.
  private func labels(_ nodes: [TrackingGraph.Node]) -> [String] { nodes.map(\.label) }

  /// Each edge as `source → dependent (properties)`, by label, sorted.
  private func edges(_ graph: TrackingGraph) -> [String] {
    let label = Dictionary(uniqueKeysWithValues: graph.nodes.map { ($0.id, $0.label) })
    let lines = graph.edges.map { edge in
      "\(label[edge.source]!) → \(label[edge.dependent]!) (\(edge.properties.joined(separator: ", ")))"
    }
    return lines.sorted()
  }

  @Test func aTokensGraphHoldsWhatItReadsTransitively() {
    let receipt = Receipt()
    let graph = TrackingGraph.around(receipt.token)
    #expect(graph.nodes.map(\.kind) == [.observation, .object, .derived, .derived])
    #expect(labels(graph.nodes) == ["receipt", "GraphOrder", "total", "subtotal"])
    #expect(graph.nodes.map(\.id) == ["r1", "o1", "d1", "d2"])
    #expect(edges(graph) == receiptEdges)
    receipt.token.cancel()
  }

  @Test func sourcesAndDependentsFollowTheEdges() {
    let receipt = Receipt()
    let graph = TrackingGraph.around(receipt.token)
    let id = Dictionary(uniqueKeysWithValues: graph.nodes.map { ($0.label, $0.id) })
    #expect(labels(graph.sources(of: id["total"]!)) == ["GraphOrder", "subtotal"])
    #expect(labels(graph.sources(of: id["receipt"]!)) == ["GraphOrder", "total"])
    #expect(labels(graph.sources(of: id["GraphOrder"]!)) == [])
    #expect(labels(graph.dependents(of: id["GraphOrder"]!)) == ["receipt", "total", "subtotal"])
    #expect(labels(graph.dependents(of: id["subtotal"]!)) == ["total"])
    #expect(labels(graph.dependents(of: id["receipt"]!)) == [])
    #expect(graph.sources(of: "no such node").isEmpty)
    receipt.token.cancel()
  }

  /// Around a derived value: what it reads, upwards, and what reads it, downwards; not
  /// what its readers read besides it.
  @Test func aDerivedValuesGraphGoesBothWays() {
    let receipt = Receipt()
    let graph = TrackingGraph.around(receipt.total)
    #expect(labels(graph.nodes).first == "total")
    #expect(
      edges(graph) == [
        "GraphOrder → subtotal (prices)",
        "GraphOrder → total (coupon)",
        "subtotal → total (value)",
        "total → receipt (value)",
      ])
    receipt.token.cancel()
    // Cancelled, the receipt is off the total's reader list.
    #expect(!edges(TrackingGraph.around(receipt.total)).contains("total → receipt (value)"))
  }

  /// Around an object: every node that reads it, with the properties each reads, and
  /// what those nodes read in turn. One edge per pair, named properties.
  @Test func anObjectsGraphHoldsWhatReadsIt() {
    let receipt = Receipt()
    let graph = TrackingGraph.around(receipt.order)
    #expect(labels(graph.nodes).first == "GraphOrder")
    #expect(edges(graph) == receiptEdges)
    receipt.token.cancel()
  }

  /// A snapshot is a value: taken, it keeps nothing alive and does not change.
  @Test func aSnapshotKeepsNothingAlive() {
    weak var released: GraphOrder?
    var graph: TrackingGraph?
    do {
      let receipt = Receipt()
      released = receipt.order
      graph = TrackingGraph.around(receipt.token)
      receipt.token.cancel()
    }
    #expect(released == nil)
    #expect(graph?.nodes.count == 4)
    #expect(graph?.edges.count == 5)
  }

  /// Unnamed nodes are called by their kind: a derived value by its type, an observation
  /// by a number.
  @Test func unnamedNodesAreCalledByTheirKind() {
    let counter = Counter()
    let doubled = Derived { counter.count * 2 }
    let token = observe { _ = doubled.value }
    let graph = TrackingGraph.around(token)
    #expect(labels(graph.nodes) == ["observation 1", "Derived<Int>", "Counter"])
    #expect(token.name == nil)
    #expect(doubled.name == nil)
    token.cancel()
  }

  @Test func theDescriptionListsEveryDependency() {
    let counter = Counter()
    let token = observe { _ = (counter.count, counter.label) }
    token.name = "view"
    #expect(
      TrackingGraph.around(token).description == """
        TrackingGraph: 2 nodes, 1 dependencies
        Counter → view (count, label)
        """)
    token.cancel()
  }

  @Test func dotDrawsEachKindWithItsShape() {
    let receipt = Receipt()
    #expect(
      TrackingGraph.around(receipt.total).dot == """
        digraph TrackingGraph {
          rankdir=LR;
          node [fontname="Helvetica", fontsize=11];
          edge [fontname="Helvetica", fontsize=9, color="#555555"];
          d1 [label="total", shape=ellipse, style=filled, fillcolor="#fef7e0"];
          o1 [label="GraphOrder", shape=box, style="rounded,filled", fillcolor="#e8f0fe"];
          d2 [label="subtotal", shape=ellipse, style=filled, fillcolor="#fef7e0"];
          r1 [label="receipt", shape=hexagon, style=filled, fillcolor="#e6f4ea"];
          o1 -> d1 [label="coupon"];
          d2 -> d1 [label="value"];
          o1 -> d2 [label="prices"];
          d1 -> r1 [label="value"];
        }

        """)
    receipt.token.cancel()
  }

  @Test func mermaidDrawsEachKindWithItsShape() {
    let receipt = Receipt()
    #expect(
      TrackingGraph.around(receipt.total).mermaid == """
        flowchart LR
          d1(["total"])
          o1["GraphOrder"]
          d2(["subtotal"])
          r1{{"receipt"}}
          o1 -->|"coupon"| d1
          d2 -->|"value"| d1
          o1 -->|"prices"| d2
          d1 -->|"value"| r1

        """)
    receipt.token.cancel()
  }

  /// Names are the user's: quotes and backslashes cannot break out of a label.
  @Test func labelsAreQuotedForEachFormat() {
    let counter = Counter()
    let token = observe { _ = counter.count }
    token.name = #"the "main" \ view"#
    let graph = TrackingGraph.around(token)
    #expect(graph.dot.contains(#"r1 [label="the \"main\" \\ view", shape=hexagon"#))
    #expect(graph.mermaid.contains(#"r1{{"the #quot;main#quot; \ view"}}"#))
    token.cancel()
  }
}
