import Foundation
import Testing
@_spi(Testing) import Tracking

/// The suites of the lifetimes feature (scopes, runs that own, cleanups, owner-bound
/// observation, observed/unobserved hooks, keep-alive).
@Suite enum LifetimeSuites {}

/// A model whose observation is started in its initializer, bound to itself.
@Trackable final class WordCounter: @unchecked Sendable {
  var text = ""
  var words = 0
  /// How many times the observation ran.
  @TrackingIgnored var runs = 0

  init(text: String = "") {
    self.text = text
    observe(self) { counter in
      counter.runs += 1
      counter.words = counter.text.split(separator: " ").count
    }
  }
}

/// A fake price feed: counts its live subscriptions.
final class FakeFeed: @unchecked Sendable {
  private let lock = NSLock()
  private var subscribers = 0
  private(set) var subscriptionsStarted = 0

  var liveSubscriptions: Int { lock.withLock { subscribers } }

  func subscribe() {
    lock.withLock {
      subscribers += 1
      subscriptionsStarted += 1
    }
  }

  func unsubscribe() { lock.withLock { subscribers -= 1 } }
}

/// A model that subscribes to its feed only while someone observes its price.
@Trackable final class Ticker: @unchecked Sendable {
  var price = 0.0
  var symbol = "XYZ"
  @TrackingIgnored var hooks: TrackingToken?

  init(feed: FakeFeed) {
    hooks = onObservation(of: \.price) { feed.subscribe() } unobserved: { feed.unsubscribe() }
  }
}

/// A model with a computed property made of two stored ones.
@Trackable final class Span: @unchecked Sendable {
  var start = 0
  var end = 0
  var length: Int { end - start }
}

/// A model that says how many observers it has.
@Trackable final class Gauge: @unchecked Sendable {
  var level = 0
  /// What watches the object: one-shot observers (pending, or finished and not yet
  /// swept) and the nodes that read it.
  var observerCount: Int { _$trackingRegistrar.installedObserverCount + _$trackingRegistrar.readerCount }
}
