import Testing

@testable import Tracking

/// A drained batch that holds nothing is not destroyed (it would only release empty
/// lists): these check that what a batch did hold — the sources of its events, the
/// notifications it queued — is still released.
@Suite struct BatchLifetimeTests {
  final class Sources: @unchecked Sendable {
    weak var first: EventSource?
    weak var second: EventSource?
  }

  @Test func theSourceOfADeliveredChangeIsReleased() {
    let counter = Counter()
    let sources = Sources()
    withTracking(options: .didSet) { _ = counter.count } onChange: { event in sources.first = event.source }
    counter.count = 1
    #expect(sources.first == nil)
  }

  @Test func theSourcesOfATransactionAndItsQueueAreReleased() {
    let counter = Counter()
    let sources = Sources()
    for _ in 0..<3 {
      // One-shot did-set trackings of both properties: queued in the transaction's
      // batch (several per change), each change with its own source.
      withTracking(options: .didSet) { _ = (counter.count, counter.label) } onChange: { event in
        if event.matches(\Counter.count) { sources.first = event.source } else { sources.second = event.source }
      }
    }
    withTransaction {
      counter.count = 1
      counter.label = "changed"
    }
    #expect(sources.first == nil)
    #expect(sources.second == nil)
  }

  /// A reaction told of a change waits in the batch with the reference the change's
  /// propagation held to tell it (`GraphWork`): released while it waits, it stays
  /// alive until the batch drains it, runs no more, and is freed then — whether the
  /// change reached it from a property it read or through a derived value.
  @Test(arguments: [false, true])
  func aReactionReleasedWhileItWaitsInTheBatchIsFreedWhenTheBatchEnds(throughDerived: Bool) {
    let counter = Counter()
    let doubled = Derived { counter.count * 2 }
    let runs = Locked(0)
    weak var reaction: Reaction?
    var token: TrackingToken? = observe {
      _ = throughDerived ? doubled.value : counter.count
      runs.withLock { $0 += 1 }
    }
    reaction = token?.reaction
    #expect(reaction != nil)
    withTransaction {
      counter.count = 1
      // Waiting in this batch: the queue holds it after the token goes.
      token = nil
      #expect(reaction != nil)
    }
    #expect(reaction == nil)
    #expect(runs.withLock { $0 } == 1)
    _ = token
  }

  /// The same reaction told of many changes in one batch waits in it once, and runs
  /// once, with the last values; it is freed with its token afterwards.
  @Test func aReactionToldOfManyChangesInOneBatchRunsOnceAndIsFreedWithItsToken() {
    let counter = Counter()
    let doubled = Derived { counter.count * 2 }
    let seen = Locked<[Int]>([])
    weak var reaction: Reaction?
    do {
      let token = observe { seen.withLock { $0.append(doubled.value + counter.count) } }
      reaction = token.reaction
      withTransaction {
        for value in 1...5 { counter.count = value }
      }
      #expect(seen.withLock { $0 } == [0, 15])
      token.cancel()
    }
    #expect(reaction == nil)
  }
}
