import Foundation
import Testing

@_spi(Testing) @testable import Tracking

/// Retirement (`Reactive/Retirement.swift`): a derived value that a run stops reading
/// while it is stale retires at once, in the critical section of that run's end when
/// it never announced its changes, and after the locks are left when a one-shot
/// tracking may observe it. Its links leave its inputs' lists of subscribers and wait
/// on its own for its next recomputation (`GraphNode.retired`).
@Suite("Retirement")
struct RetirementTests {
  /// Whether `value`'s node is linked to any input.
  private func observesInputs(_ value: Derived<Int>) -> Bool {
    Graph.withLock { !Graph.sources(of: value.node.graph).isEmpty || !Graph.dependencies(of: value.node.graph).isEmpty }
  }

  /// The reactivity suite's `unstable` shape: `current` reads `double` or `inverse` by
  /// the parity of `a`, and every write flips it. The one it stops reading was left
  /// stale by the write: in the run's end, its link leaves `a`'s subscribers, and its
  /// next recomputation puts it back.
  @Test func aValueARunStopsReadingWhileStaleRetiresAtOnceAndLinksAgainWhenRead() {
    let inputs = DerivedInputs()
    let double = Derived { inputs.a * 2 }
    let inverse = Derived { -inputs.a }
    let current = Derived { inputs.a % 2 != 0 ? double.value : inverse.value }
    let seen = Received<Int>()
    let token = observe { seen.append(current.value) }
    #expect(observesInputs(double) && !observesInputs(inverse))
    for value in 2...7 {
      inputs.a = value
      let odd = value % 2 != 0
      #expect(observesInputs(double) == odd)
      #expect(observesInputs(inverse) == !odd)
      #expect(double.node.readers.isEmpty == !odd)
      #expect(inverse.node.readers.isEmpty == odd)
    }
    #expect(seen.values == [2, -2, 6, -4, 10, -6, 14])
    // One reader of `inputs` per value that reads it: `current`, and the one it reads.
    #expect(inputs.observerCount == 2)
    token.cancel()
  }

  /// A retired value keeps its links, off its inputs' lists, for its next run: when
  /// it goes instead, they go with it, and release what they held.
  @Test func aRetiredValueThatGoesReleasesTheValuesItRead() {
    let inputs = DerivedInputs()
    weak var doubledNode: AnyObject?
    weak var labelNode: AnyObject?
    do {
      let doubled = Derived { inputs.a * 2 }
      let label = Derived { "\(doubled.value)" }
      doubledNode = doubled.node
      labelNode = label.node
      let token = observe { _ = label.value }
      withTransaction {
        inputs.a = 2
        token.cancel()
      }
      // Both retired: neither observes its input, and `inputs` has no reader.
      #expect(Graph.withLock { label.node.graph.pointee.retired && doubled.node.graph.pointee.retired })
      #expect(doubled.node.readers.isEmpty)
      #expect(inputs.observerCount == 0)
    }
    #expect(labelNode == nil)
    #expect(doubledNode == nil)
  }

  /// Kept alive, the value a run stops reading stays linked to its input, stale; turned
  /// off, it retires at once.
  @Test func aValueKeptAliveThatARunStopsReadingStaysLinkedUntilTurnedOff() {
    let inputs = DerivedInputs()
    let double = Derived { inputs.a * 2 }
    double.keepsAlive = true
    let current = Derived { inputs.useA ? double.value : inputs.b }
    let seen = Received<Int>()
    let token = observe { seen.append(current.value) }
    withTransaction {
      inputs.a = 3
      inputs.useA = false
    }
    #expect(double.node.readers.isEmpty)
    #expect(observesInputs(double))
    double.keepsAlive = false
    #expect(!observesInputs(double))
    #expect(double.value == 6)
    #expect(seen.values == [2, 10])
    token.cancel()
  }

  /// A value a one-shot tracking read announces its changes: left stale and unread by
  /// a run, it retires after the locks are left, once the batch has pulled it for that
  /// tracking, which hears the change once.
  @Test func aValueAOneShotTrackingReadHearsTheChangeThatLeavesItUnread() {
    let inputs = DerivedInputs()
    let double = Derived { inputs.a * 2 }
    let current = Derived { inputs.useA ? double.value : inputs.b }
    let token = observe { _ = current.value }
    let fired = Received<Int>()
    withTracking { _ = double.value } onChange: { fired.append(1) }
    withTransaction {
      inputs.a = 3
      inputs.useA = false
    }
    #expect(fired.values == [1])
    #expect(double.node.readers.isEmpty)
    #expect(double.value == 6)
    token.cancel()
  }
}
