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
}
