import Tracking

/// The cellx benchmark: layers of four cross-linked computeds over four signals, every
/// computed read by an effect. One update writes the four signals in a batch; the
/// suite checks the last layer's values before and after.
public enum CellxCase {
  /// The layer counts the suite runs, with the last layer's values before and after
  /// the update.
  public static let expected: [(layers: Int, before: [Int], after: [Int])] = [
    (1000, [-3, -6, -2, 2], [-2, -4, 2, 3]),
    (2500, [-3, -6, -2, 2], [-2, -4, 2, 3]),
  ]

  /// The four props of one layer.
  public struct Layer {
    public let prop1: () -> Int
    public let prop2: () -> Int
    public let prop3: () -> Int
    public let prop4: () -> Int
  }

  /// The graph of `layers` layers, built in `graph`; returns the update, which returns
  /// the last layer's values before and after it.
  public static func build(_ graph: SuiteGraph, layers: Int) -> () -> (before: [Int], after: [Int]) {
    let start = (graph.signal(1), graph.signal(2), graph.signal(3), graph.signal(4))
    var layer = Layer(
      prop1: { start.0.value }, prop2: { start.1.value }, prop3: { start.2.value }, prop4: { start.3.value })
    for _ in 0..<layers {
      let m = layer
      let prop1 = graph.computed { m.prop2() }
      let prop2 = graph.computed { m.prop1() - m.prop3() }
      let prop3 = graph.computed { m.prop2() + m.prop4() }
      let prop4 = graph.computed { m.prop3() }
      graph.effect { _ = prop1.value }
      graph.effect { _ = prop2.value }
      graph.effect { _ = prop3.value }
      graph.effect { _ = prop4.value }
      layer = Layer(prop1: { prop1.value }, prop2: { prop2.value }, prop3: { prop3.value }, prop4: { prop4.value })
    }
    let end = layer
    return {
      let before = [end.prop1(), end.prop2(), end.prop3(), end.prop4()]
      graph.batch {
        start.0.value = 4
        start.1.value = 3
        start.2.value = 2
        start.3.value = 1
      }
      let after = [end.prop1(), end.prop2(), end.prop3(), end.prop4()]
      return (before, after)
    }
  }

  /// The same update by hand: every layer recomputed once from the one below.
  public static func byHand(layers: Int) -> () -> (before: [Int], after: [Int]) {
    func run(_ start: (Int, Int, Int, Int)) -> [Int] {
      var (p1, p2, p3, p4) = (opaqueCount(start.0), start.1, start.2, start.3)
      for _ in 0..<opaqueCount(layers) {
        (p1, p2, p3, p4) = (p2, p1 - p3, p2 + p4, p3)
        sink(p1)
      }
      return [p1, p2, p3, p4]
    }
    return { (run((1, 2, 3, 4)), run((4, 3, 2, 1))) }
  }
}
