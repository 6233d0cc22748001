import Clocks
import Testing
@_spi(Testing) import Tracking

/// The trailing-edge throttle, driven by a `TestClock`.
extension ContinuousTrackingSuites {
  @Suite("atMostOnce(every:clock:)")
  @UIActor
  struct ThrottledTests {
    @Test func firstValuePassesAtOnceThenTheLatestArrivesAtTheEndOfTheInterval() async {
      let clock = TestClock()
      let image = ImageAdjustments()
      var values = image.values(of: \.brightness).atMostOnce(every: .seconds(1), clock: clock).makeAsyncIterator()
      #expect(await values.next() == 0)

      let (acks, ack) = AsyncStream<Void>.makeStream()
      let producer = Task { @UIActor in
        var acked = acks.makeAsyncIterator()
        image.brightness = 0.1  // inside the interval: held
        await acked.next()
        image.brightness = 0.2  // replaces the held value
        await acked.next()
        await untilSomethingSleeps(on: clock)  // the throttle waits for the interval's end
        await clock.advance(by: .seconds(1))  // the interval ends: the latest is delivered
      }
      ack.yield()
      await Task.yield()
      ack.yield()
      #expect(await values.next() == 0.2)
      await producer.value
    }

    @Test func aValueAfterAQuietIntervalPassesAtOnce() async {
      let clock = TestClock()
      let image = ImageAdjustments()
      var values = image.values(of: \.contrast).atMostOnce(every: .seconds(1), clock: clock).makeAsyncIterator()
      #expect(await values.next() == 0)
      await clock.advance(by: .seconds(2))
      image.contrast = 0.7
      #expect(await values.next() == 0.7)
    }

    @Test func endOfTheBaseDeliversTheHeldValueThenFinishes() async {
      let clock = TestClock()
      let (base, input) = AsyncStream<Int>.makeStream()
      var values = base.atMostOnce(every: .seconds(1), clock: clock).makeAsyncIterator()
      input.yield(1)
      #expect(await values.next() == 1)
      input.yield(2)
      input.yield(3)
      input.finish()
      let advancing = Task {
        await untilSomethingSleeps(on: clock)  // the held value's interval
        // Not `clock.run()`: past 500 ms of real time (a loaded machine) it ends every
        // pending sleep with an error, and the held value would never be delivered.
        await clock.advance(by: .seconds(1))
      }
      #expect(await values.next() == 3)
      #expect(await values.next() == nil)
      await advancing.value
    }

    /// A clock whose sleep fails (not by cancellation) delivers the held value at once.
    /// Before, the value was dropped and the gate kept a dead timer, so every later value
    /// was held forever and the stream never finished (the time limit catches that).
    @Test(.timeLimit(.minutes(1))) func aFailingClockDeliversTheHeldValueInsteadOfLosingIt() async {
      let (base, input) = AsyncStream<Int>.makeStream()
      var values = base.atMostOnce(every: .seconds(3600), clock: FailingClock()).makeAsyncIterator()
      input.yield(1)
      #expect(await values.next() == 1)
      input.yield(2)  // inside the hour: held, and the clock fails to wait
      #expect(await values.next() == 2)
      input.yield(3)
      #expect(await values.next() == 3)
      input.finish()
      #expect(await values.next() == nil)
    }
  }
}
