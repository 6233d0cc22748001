import Tracking

/// A model that observes itself from its initializer, bound to itself.
@Trackable final class TourDraft: @unchecked Sendable {
  var text = ""
  var words = 0

  init(_ text: String) {
    self.text = text
    observe(self) { draft in draft.words = draft.text.split(separator: " ").count }
  }
}

/// A feed that counts its subscriptions, and a model that subscribes only while observed.
final class TourFeed: @unchecked Sendable {
  var live = 0
}

@Trackable final class TourTicker: @unchecked Sendable {
  var price = 0.0
  /// Every write of a quote is an event, even of the same price.
  @TrackedEquality(.always) var lastQuote = 0.0
  @TrackingIgnored var hooks: TrackingToken?

  init(feed: TourFeed) {
    hooks = onObservation(of: \.price) { feed.live += 1 } unobserved: { feed.live -= 1 }
  }
}

enum LifetimesChapter {
  /// Scopes, runs that own what they start, cleanups, owner-bound observation and
  /// observed/unobserved hooks. The tour runs on one thread.
  static func run() {
    Narrator.chapter("12. Lifetimes: observations end with their owner")

    // The SwiftUI pitfall: a @State model's initializer may run several times.
    weak var dropped: TourDraft?
    let kept = TourDraft("one two")
    do {
      let discarded = TourDraft("a discarded copy")
      dropped = discarded
    }
    kept.text = "one two three"
    Narrator.say("a model observing itself from init: \(kept.words) words; the discarded copy released: \(dropped == nil)")

    let inbox = TourInbox()
    let log = TourLog()
    let scope = TrackingScope()
    scope.run {
      _ = observe {
        let count = inbox.messages.count
        log.lines.append("render \(count) messages")
        onCleanup { log.lines.append("clean up after \(count)") }
        _ = observe { _ = inbox.messages.first?.subject }  // owned by this run
      }
    }
    inbox.messages.append(TourMessage(id: 1, subject: "hello"))
    scope.cancel()
    inbox.messages.append(TourMessage(id: 2, subject: "after the scope"))
    Narrator.say("a scope's observation with a cleanup: " + log.lines.joined(separator: " → "))

    let feed = TourFeed()
    let ticker = TourTicker(feed: feed)
    let first = observe { _ = ticker.price }
    let second = observe { _ = ticker.price }
    Narrator.say("two observers of the price: \(feed.live) live subscription")
    first.cancel()
    second.cancel()
    Narrator.say("none left: \(feed.live) live subscriptions")

    let quotes = TourLog()
    let quoteWatch = observe { quotes.lines.append("quote \(ticker.lastQuote)") }
    ticker.lastQuote = 0  // the same value, but `.always`: a change
    let parity = TourLog()
    let reaction = react(to: { Int(ticker.price) % 2 }) { value in parity.lines.append("parity \(value)") }
    ticker.price = 2  // parity 0 again: no effect
    ticker.price = 3
    Narrator.say(
      "@TrackedEquality(.always): writing the same quote re-ran its observer \(quotes.lines.count - 1) time; "
        + "react(to:) on the price's parity (0 → 0 → 1): \(parity.lines)")
    quoteWatch.cancel()
    reaction.cancel()
  }
}

/// Lines the chapter's observations write. The tour runs on one thread.
final class TourLog: @unchecked Sendable {
  var lines: [String] = []
}
