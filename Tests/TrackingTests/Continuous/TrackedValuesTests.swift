import Observation
import Testing
@_spi(Testing) import Tracking
@_spi(Testing) @testable import Tracking

extension ContinuousTrackingSuites {
  @Suite("TrackedValues: transactional values (SE-0475)")
  @UIActor
  struct TrackedValuesTests {
    @Test func initialValueFirstThenOneValuePerSynchronousBurst() async {
      let image = ImageAdjustments()
      var values = TrackedValues { image.brightness }.makeAsyncIterator()
      #expect(await values.next() == 0)
      image.brightness = 0.1
      image.brightness = 0.2
      image.brightness = 0.3
      #expect(await values.next() == 0.3)
    }

    @Test func changeOfAnUnreadPropertyProducesNothing() async {
      let image = ImageAdjustments()
      var values = TrackedValues { image.brightness }.makeAsyncIterator()
      #expect(await values.next() == 0)
      image.contrast = 1  // not read: no value
      image.brightness = 0.5
      #expect(await values.next() == 0.5)
    }

    @Test func conditionalReadsAreRetrackedEachTime() async {
      let image = ImageAdjustments()
      var values = TrackedValues { image.useContrast ? image.contrast : image.saturation }.makeAsyncIterator()
      #expect(await values.next() == 0)
      image.useContrast = true
      #expect(await values.next() == 0)
      image.saturation = 9  // no longer read
      image.contrast = 2
      #expect(await values.next() == 2)
    }

    @Test func untilFinishedEndsWhenTheClosureSaysSo() async {
      let image = ImageAdjustments()
      let sequence = TrackedValues<Double, Never>.untilFinished {
        image.brightness < 1 ? .next(image.brightness) : .finish
      }
      var values = sequence.makeAsyncIterator()
      #expect(await values.next() == 0)
      image.brightness = 0.5
      #expect(await values.next() == 0.5)
      image.brightness = 1
      #expect(await values.next() == nil)
      #expect(await values.next() == nil)
    }

    @Test func throwingClosureEndsTheSequenceWithItsError() async throws {
      struct TooBright: Error {}
      let image = ImageAdjustments()
      let sequence = TrackedValues { () throws(TooBright) -> Double in
        if image.brightness > 1 { throw TooBright() }
        return image.brightness
      }
      var values = sequence.makeAsyncIterator()
      #expect(try await values.next() == 0)
      image.brightness = 2
      await #expect(throws: TooBright.self) { try await values.next() }
      #expect(try await values.next() == nil)
    }

    @Test func severalIteratorsEachReceiveEveryValue() async {
      let image = ImageAdjustments()
      let sequence = TrackedValues { image.brightness }
      var first = sequence.makeAsyncIterator()
      var second = sequence.makeAsyncIterator()
      #expect(await first.next() == 0)
      #expect(await second.next() == 0)
      image.brightness = 0.4
      #expect(await first.next() == 0.4)
      #expect(await second.next() == 0.4)
    }

    @Test func aChangeBetweenTwoNextCallsIsNotLost() async {
      let image = ImageAdjustments()
      var values = TrackedValues { image.brightness }.makeAsyncIterator()
      #expect(await values.next() == 0)
      image.brightness = 0.7  // nobody is waiting yet
      #expect(await values.next() == 0.7)
    }

    @Test func cancellationEndsIteration() async {
      let image = ImageAdjustments()
      let started = AsyncStream<Void>.makeStream()
      let task = Task { @UIActor in
        var count = 0
        for await _ in TrackedValues({ image.brightness }) {
          count += 1
          started.continuation.yield()
        }
        return count
      }
      var iterator = started.stream.makeAsyncIterator()
      await iterator.next()  // the initial value arrived; the loop now waits for a change
      task.cancel()
      #expect(await task.value == 1)
    }

    @Test func droppingTheIteratorReleasesTheObjectAndTheTracking() async {
      let image = ImageAdjustments()
      do {
        var values = TrackedValues { image.brightness }.makeAsyncIterator()
        #expect(await values.next() == 0)
        #expect(ObservedMaskTests.entryCount(of: image) == 1)
      }
      // The iterator is gone: its observer was cancelled, and the next write sweeps it.
      image.brightness = 1
      #expect(ObservedMaskTests.entryCount(of: image) == 0)
      weak var weakImage: ImageAdjustments?
      do {
        let captured = ImageAdjustments()
        weakImage = captured
        var values = TrackedValues { [weak captured] in captured?.brightness ?? -1 }.makeAsyncIterator()
        #expect(await values.next() == 0)
      }
      #expect(weakImage == nil)
    }

    @Test func closureRunsOnTheActorItWasCreatedOn() async {
      let image = ImageAdjustments()
      let sequence = TrackedValues { image.brightness }
      #expect(sequence.producer.isolation === UIActor.shared)
      let fromElsewhere = await Task.detached {
        var values = sequence.makeAsyncIterator()
        return await values.next()
      }.value
      #expect(fromElsewhere == 0)
    }

    /// The observer of the previous round stays installed while the closure runs again;
    /// the closure's own writes must still not cause another value.
    @Test func writesInsideTheClosureDoNotCauseAnotherValue() async {
      let image = ImageAdjustments()
      var values = TrackedValues { () -> Double in
        image.saturation += 1  // reads and writes what it tracks
        return image.saturation
      }.makeAsyncIterator()
      #expect(await values.next() == 1)
      image.saturation = 10
      #expect(await values.next() == 11)
      // The next change comes from a task that can only run once this test suspends,
      // i.e. once `next()` really waits. Had the closure's own write counted as a
      // change, `next()` would return 12 at once, before that task ran.
      Task { @UIActor in image.saturation = 100 }
      #expect(await values.next() == 101)
    }

    /// Iterating on another executor than the closure's actor: each evaluation hops to
    /// the actor, and the wait between values runs where the iterator is.
    @Test func iteratingAwayFromTheClosuresActorFollowsChanges() async {
      let image = ImageAdjustments()
      let sequence = TrackedValues { image.brightness }
      let (received, deliver) = AsyncStream<Double>.makeStream()
      let consumer = Task.detached {
        var values = sequence.makeAsyncIterator()
        while let value = await values.next() {
          deliver.yield(value)
          if value == 2 { break }
        }
      }
      // Each value is evaluated, and its tracking installed, before it is handed over.
      var seen = received.makeAsyncIterator()
      #expect(await seen.next() == 0)
      image.brightness = 1
      #expect(await seen.next() == 1)
      image.brightness = 2
      #expect(await seen.next() == 2)
      await consumer.value
    }
  }
}

/// The same scripted producer against Apple's `Observations` and `TrackedValues`: the
/// producer mutates in bursts and waits for the consumer to acknowledge each value, so
/// the run is deterministic; the received values must be equal.
extension ContinuousTrackingSuites {
  @Suite("Differential: Apple's Observations vs TrackedValues")
  @UIActor
  struct ObservationsDifferentialTests {
    static let bursts: [[Double]] = [[1], [2, 3], [4, 5, 6], [7], [8, 9]]
    /// One value per burst, the burst's last, after the initial value.
    static let expected: [Double] = [0, 1, 3, 6, 7, 9]

    @Test func sameValuesAsApple() async {
      let apple = AppleImageAdjustments()
      let appleValues = await Self.run(
        Observations { apple.brightness }, mutate: { apple.brightness = $0 })
      let ours = ImageAdjustments()
      let ourValues = await Self.run(TrackedValues { ours.brightness }, mutate: { ours.brightness = $0 })
      #expect(appleValues == Self.expected)
      #expect(ourValues == appleValues)
    }

    @Test func conditionalReadsLikeApple() async {
      let apple = AppleImageAdjustments()
      let appleValues = await Self.run(
        Observations { apple.useContrast ? apple.contrast : apple.brightness },
        mutate: { value in
          apple.useContrast = value >= 4
          apple.contrast = value * 10
          apple.brightness = value
        })
      let ours = ImageAdjustments()
      let ourValues = await Self.run(
        TrackedValues { ours.useContrast ? ours.contrast : ours.brightness },
        mutate: { value in
          ours.useContrast = value >= 4
          ours.contrast = value * 10
          ours.brightness = value
        })
      #expect(appleValues == [0, 1, 3, 60, 70, 90])
      #expect(ourValues == appleValues)
    }

    static func run<S: AsyncSequence & Sendable>(
      _ sequence: S, mutate: @escaping @UIActor (Double) -> Void
    ) async -> [Double] where S.Element == Double, S.Failure == Never {
      let (acks, ack) = AsyncStream<Void>.makeStream()
      let consumer = Task { @UIActor in
        var received: [Double] = []
        for await value in sequence {
          received.append(value)
          ack.yield()
          if received.count == bursts.count + 1 { break }
        }
        return received
      }
      var ackIterator = acks.makeAsyncIterator()
      await ackIterator.next()  // the initial value
      for burst in bursts {
        for value in burst { mutate(value) }
        await ackIterator.next()
      }
      return await consumer.value
    }
  }
}
