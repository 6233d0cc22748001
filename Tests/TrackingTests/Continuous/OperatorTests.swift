import AsyncAlgorithms
import Clocks
import Testing
@_spi(Testing) import Tracking

/// `TrackedValues` are ordinary `AsyncSequence`s: they compose with
/// swift-async-algorithms. Time-based operators run on a `TestClock`, advanced by hand.
extension ContinuousTrackingSuites {
  @Suite("Operators from swift-async-algorithms")
  @UIActor
  struct OperatorTests {
    @Test func removeDuplicatesDropsTransactionsThatEndWhereTheyStarted() async {
      let image = ImageAdjustments()
      var values = image.values(of: \.brightness).removeDuplicates().makeAsyncIterator()
      #expect(await values.next() == 0)
      image.brightness = 1
      image.brightness = 0  // one transaction, back to 0: a duplicate value
      let (acks, ack) = AsyncStream<Void>.makeStream()
      Task { @UIActor in
        var acker = acks.makeAsyncIterator()
        await acker.next()
        image.brightness = 2
      }
      ack.yield()
      #expect(await values.next() == 2)
    }

    @Test func combineLatestOfTwoProperties() async {
      let image = ImageAdjustments()
      var pairs = combineLatest(image.values(of: \.brightness), image.values(of: \.saturation))
        .makeAsyncIterator()
      let first = await pairs.next()
      #expect(first?.0 == 0 && first?.1 == 0)
      image.saturation = 0.5
      let second = await pairs.next()
      #expect(second?.0 == 0 && second?.1 == 0.5)
    }

    @Test func mergeOfTwoStreams() async {
      let image = ImageAdjustments()
      var merged = merge(image.values(of: \.brightness), image.values(of: \.contrast)).makeAsyncIterator()
      var initial = [await merged.next(), await merged.next()]
      initial.sort { ($0 ?? 0) < ($1 ?? 0) }
      #expect(initial == [0, 0])
      image.contrast = 0.8
      #expect(await merged.next() == 0.8)
    }

    @Test func debounceOnATestClock() async {
      let clock = TestClock()
      let image = ImageAdjustments()
      let received = Received<Double>()
      let (arrivals, arrived) = AsyncStream<Void>.makeStream()
      let consumer = Task { @UIActor in
        for await value in image.values(of: \.brightness).debounce(for: .seconds(1), clock: clock) {
          received.append(value)
          arrived.yield()
        }
      }
      var arrival = arrivals.makeAsyncIterator()
      await untilSomethingSleeps(on: clock)  // the window of the initial value
      await clock.advance(by: .seconds(1))
      await arrival.next()
      #expect(received.values == [0])

      // (How a change inside the window restarts it is async-algorithms' own logic;
      // stepping through it here raced the operator's task against the clock.)
      image.brightness = 0.2
      await untilSomethingSleeps(on: clock)  // the operator received 0.2: its window
      #expect(received.values == [0])
      await clock.advance(by: .seconds(1))
      await arrival.next()
      #expect(received.values == [0, 0.2])
      consumer.cancel()
    }

    @Test func throttleOnATestClock() async {
      let clock = TestClock()
      let image = ImageAdjustments()
      let received = Received<Double>()
      let (arrivals, arrived) = AsyncStream<Void>.makeStream()
      let consumer = Task { @UIActor in
        let throttled = image.values(of: \.brightness)._throttle(for: .seconds(1), clock: clock, latest: true)
        for await value in throttled {
          received.append(value)
          arrived.yield()
        }
      }
      var arrival = arrivals.makeAsyncIterator()
      await arrival.next()
      #expect(received.values == [0])
      await clock.advance(by: .seconds(1))
      image.brightness = 0.5
      await arrival.next()
      #expect(received.values == [0, 0.5])
      consumer.cancel()
    }
  }
}
