import Tracking

@Trackable final class Order: @unchecked Sendable {
  var prices: [Int] = [4, 6]
  var coupon = 0
  var customer = "Ada"
}

/// Derived values on the one reactive core, and looking at the graph they make.
enum GraphChapter {
  /// `dotOnly`: prints nothing but the final graph as Graphviz DOT (`--graph-dot`), which
  /// is how the figure of the article "The reactive graph" is made:
  /// `swift run tracking-tour --graph-dot | dot -Tsvg > Sources/Tracking/Tracking.docc/Resources/reactive-graph.svg`.
  static func run(dotOnly: Bool = false) {
    Narrator.isQuiet = dotOnly
    defer { Narrator.isQuiet = false }
    TrackingIntrospection.isEnabled = true
    defer { TrackingIntrospection.isEnabled = false }
    let order = Order()

    Narrator.chapter("9. Derived values: lazy, cached, and a change that leaves them equal goes no further")
    let subtotal = Derived { order.prices.reduce(0, +) }
    subtotal.name = "subtotal"
    let total = Derived { max(0, subtotal.value - order.coupon) }
    total.name = "total"
    let isFree = Derived { total.value == 0 }
    isFree.name = "isFree"
    let receipt = observe { Narrator.say("receipt for \(order.customer): total \(total.value)") }
    receipt.name = "receipt"
    let badge = observe { Narrator.say("badge: \(isFree.value ? "free!" : "to pay")") }
    badge.name = "badge"

    Narrator.say("coupon 3: total changes, isFree does not, so the badge does not run")
    order.coupon = 3
    Narrator.say("prices [5, 5]: the subtotal recomputes to an equal value; nothing downstream runs")
    order.prices = [5, 5]
    Narrator.say("why did the receipt run last? \(receipt.lastRunCauses)")

    if dotOnly {
      print(TrackingGraph.current().dot)
      receipt.cancel()
      badge.cancel()
      return
    }
    Narrator.chapter("10. The graph, as a Mermaid flowchart (TrackingGraph.current().mermaid)")
    for line in TrackingGraph.current().mermaid.split(separator: "\n") { Narrator.say(String(line)) }
    Narrator.say("(TrackingGraph.around(total) shows the part around one value; .dot is for Graphviz)")
    receipt.cancel()
    badge.cancel()
  }
}
