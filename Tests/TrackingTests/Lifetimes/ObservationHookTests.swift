import Testing
@_spi(Testing) import Tracking

extension LifetimeSuites {
  @Suite("Observed and unobserved hooks")
  struct ObservationHookTests {
    @Test func aModelSubscribesOnlyWhileSomeoneObservesIt() {
      let feed = FakeFeed()
      let ticker = Ticker(feed: feed)
      #expect(feed.liveSubscriptions == 0)
      let first = observe { _ = ticker.price }
      #expect(feed.liveSubscriptions == 1)
      let second = observe { _ = ticker.price }
      #expect(feed.liveSubscriptions == 1)
      first.cancel()
      #expect(feed.liveSubscriptions == 1)
      second.cancel()
      #expect(feed.liveSubscriptions == 0)
      // Again.
      let third = observe { _ = ticker.price }
      #expect(feed.liveSubscriptions == 1)
      #expect(feed.subscriptionsStarted == 2)
      third.cancel()
      #expect(feed.liveSubscriptions == 0)
    }

    @Test func observingAnotherPropertyDoesNotCount() {
      let feed = FakeFeed()
      let ticker = Ticker(feed: feed)
      let token = observe { _ = ticker.symbol }
      #expect(feed.subscriptionsStarted == 0)
      token.cancel()
    }

    @Test func anObservationThatStaysOnTheSameReadsStaysObserved() {
      let feed = FakeFeed()
      let ticker = Ticker(feed: feed)
      let token = observe { _ = ticker.price }
      ticker.price = 1
      ticker.price = 2
      #expect(feed.subscriptionsStarted == 1)
      #expect(feed.liveSubscriptions == 1)
      token.cancel()
    }

    @Test func aOneShotTrackingIsUnobservedWhenItsEntryIsRemovedByTheWrite() {
      let feed = FakeFeed()
      let ticker = Ticker(feed: feed)
      withTracking(options: .didSet) { _ = ticker.price } onChange: { _ in }
      #expect(feed.liveSubscriptions == 1)
      ticker.price = 1  // fires, and the write removes the finished entry
      #expect(feed.liveSubscriptions == 0)
    }

    @Test func registeringWhileObservedCallsObservedAtOnceAndCancellingCallsUnobserved() {
      let meter = Meter()
      let observation = observe { _ = meter.level }
      let log = Received<String>()
      let hooks = meter.onObservation(of: \.level) { log.append("observed") } unobserved: { log.append("unobserved") }
      #expect(log.values == ["observed"])
      hooks.cancel()
      #expect(log.values == ["observed", "unobserved"])
      observation.cancel()
      #expect(log.values == ["observed", "unobserved"])
    }

    @Test func aDerivedValueHasTheSameHooks() {
      let counter = Counter()
      let doubled = Derived { counter.count * 2 }
      let log = Received<String>()
      let hooks = doubled.onObservation { log.append("observed") } unobserved: { log.append("unobserved") }
      #expect(doubled.recomputeCount == 0)  // registering computes nothing
      let token = observe { _ = doubled.value }
      #expect(log.values == ["observed"])
      token.cancel()
      #expect(log.values == ["observed", "unobserved"])
      hooks.cancel()
    }

    /// A ticker whose price only a chain of two derived values reads (`label` reads
    /// `doubled`, which reads the price), and an observation of `label`.
    private static func observedChain() -> (FakeFeed, Ticker, Derived<String>, TrackingToken) {
      let feed = FakeFeed()
      let ticker = Ticker(feed: feed)
      let doubled = Derived { ticker.price * 2 }
      let label = Derived { "\(doubled.value)" }
      return (feed, ticker, label, observe { _ = label.value })
    }

    /// A derived value read only by another derived value: when the reader retires,
    /// at the first change after its observation ends, the value it read was left stale
    /// by that change, and a change does not pass through a stale value. It must retire
    /// then too, or it observes its input for good (the feed never stopped).
    @Test func aChainOfDerivedValuesStopsObservingAtTheFirstChangeAfterItsObservationEnds() {
      let (feed, ticker, label, token) = Self.observedChain()
      #expect(feed.liveSubscriptions == 1)
      token.cancel()
      #expect(feed.liveSubscriptions == 1)  // retires at the next change
      ticker.price = 1
      #expect(feed.liveSubscriptions == 0)
      ticker.price = 2
      #expect(feed.liveSubscriptions == 0)
      #expect(label.value == "4.0")  // read again: observes again, until the next change
      #expect(feed.liveSubscriptions == 1)
      ticker.price = 3
      #expect(feed.liveSubscriptions == 0)
    }

    /// An observation that ends while what it read is stale (a change in the same
    /// transaction): the values it leaves unobserved retire at once, as no later change
    /// would reach them.
    @Test func derivedValuesLeftStaleAndUnobservedStopObservingAtOnce() {
      let (feed, ticker, label, token) = Self.observedChain()
      withTransaction {
        ticker.price = 1
        token.cancel()
      }
      #expect(feed.liveSubscriptions == 0)
      #expect(label.value == "2.0")
    }

    @Test func aComputedKeyPathHooksWhatItReads() {
      let span = Span()
      let log = Received<String>()
      let hooks = span.onObservation(of: \.length) { log.append("observed") } unobserved: { log.append("unobserved") }
      let a = observe { _ = span.start }
      let b = observe { _ = span.end }
      a.cancel()
      #expect(log.values == ["observed"])
      b.cancel()
      #expect(log.values == ["observed", "unobserved"])
      hooks.cancel()
    }
  }

  @Suite("Derived.keepsAlive")
  struct KeepAliveTests {
    @Test func aKeptAliveValueStaysSubscribedWithNoObserver() {
      let counter = Counter()
      let plain = Derived { counter.count + 1 }
      let kept = Derived { counter.count + 1 }
      kept.keepsAlive = true
      #expect(kept.keepsAlive)
      for value in 1...3 {
        _ = plain.value
        _ = kept.value
        let token = observe { _ = plain.value; _ = kept.value }  // observed, then not
        token.cancel()
        counter.count = value
      }
      #expect(plain.value == 4)
      #expect(kept.value == 4)
      // The plain one retired at each change and subscribed again at the next read.
      #expect(plain.inputRelinkCount > kept.inputRelinkCount)
      #expect(kept.inputRelinkCount == 1)
    }

    /// Kept alive through a change, a value nobody observes stays stale and linked; a
    /// change does not pass through a stale value, so when keep-alive is turned off no
    /// later change would find it unobserved. It stops observing at once instead.
    @Test func turningKeepAliveOffStopsAStaleUnobservedValueObservingAtOnce() {
      let feed = FakeFeed()
      let ticker = Ticker(feed: feed)
      let doubled = Derived { ticker.price * 2 }
      doubled.keepsAlive = true
      #expect(doubled.value == 0)
      #expect(feed.liveSubscriptions == 1)
      ticker.price = 1
      #expect(feed.liveSubscriptions == 1)  // kept alive
      doubled.keepsAlive = false
      #expect(feed.liveSubscriptions == 0)
      ticker.price = 2
      #expect(feed.liveSubscriptions == 0)
      #expect(doubled.value == 4)
    }
  }
}
