import Testing
@_spi(Testing) import Tracking

extension ContinuousTrackingSuites {
  @Suite("Callback observation")
  struct ObserveTests {
    @Test func runsNowAndAfterEachChangeUntilCancelled() {
      let meter = Meter()
      let seen = Received<Int>()
      let token = observe { seen.append(meter.level) }
      meter.level = 1
      meter.level = 2
      meter.name = "unread"
      token.cancel()
      meter.level = 3
      #expect(seen.values == [0, 1, 2])
      #expect(token.isCancelled)
    }

    @Test func reRunsAfterTheChangeWithTheNewValue() {
      let meter = Meter()
      let seen = Received<String>()
      let token = observe { seen.append("level=\(meter.level)") }
      meter.level = 5
      #expect(seen.values == ["level=0", "level=5"])
      _ = token
    }

    @Test func followsConditionalReads() {
      let meter = Meter()
      let seen = Received<String>()
      let token = observe { seen.append(meter.level > 0 ? meter.name : "off") }
      meter.name = "ignored while off"
      meter.level = 1
      meter.name = "on"
      #expect(seen.values == ["off", "ignored while off", "on"])
      token.cancel()
    }

    @Test func releasingTheTokenStopsTheObservationAndReleasesTheClosure() {
      let meter = Meter()
      let seen = Received<Int>()
      weak var weakWitness: Witness?
      do {
        let witness = Witness()
        weakWitness = witness
        let token = observe { _ = witness; seen.append(meter.level) }
        meter.level = 1
        _ = token
      }
      #expect(weakWitness == nil)
      meter.level = 2
      #expect(seen.values == [0, 1])
    }

    /// Found by the soak test: the observation's last event refers back to it, so
    /// cancelling must drop that event, or the cancelled observation and its closure
    /// outlive the token.
    @Test func aCancelledObservationIsFreedWithItsToken() {
      let meter = Meter()
      weak var weakWitness: Witness?
      var token: TrackingToken?
      do {
        let witness = Witness()
        weakWitness = witness
        token = observe { _ = witness; _ = meter.level }  // its last event: the first run's
      }
      token?.cancel()
      token = nil
      #expect(weakWitness == nil)
    }

    /// The observation's observers hold it strongly (no lock on the way in): an
    /// observer replaced because the reads changed must leave every object it was on,
    /// or it would keep the cancelled observation and its closure alive.
    @Test func aReplacedObserverLeavesTheObjectsNoLongerRead() {
      let first = Meter()
      let second = Meter()
      let useSecond = Meter()
      weak var weakWitness: Witness?
      var token: TrackingToken?
      do {
        let witness = Witness()
        weakWitness = witness
        token = observe {
          _ = witness
          _ = useSecond.level == 0 ? first.level : second.level
        }
      }
      #expect(ObservedMaskTests.entryCount(of: first) == 1)
      useSecond.level = 1  // the run reads `second` now: the first observer is replaced
      #expect(ObservedMaskTests.entryCount(of: first) == 0)
      #expect(ObservedMaskTests.entryCount(of: second) == 1)
      token?.cancel()
      token = nil
      #expect(weakWitness == nil)
      #expect(ObservedMaskTests.entryCount(of: second) == 0)
    }

    @Test func changesMadeByTheBodyDoNotReRunIt() {
      let meter = Meter()
      let runs = Received<Int>()
      let token = observe {
        runs.append(meter.level)
        if meter.level < 10 { meter.level += 100 }
      }
      #expect(runs.values == [0])
      meter.level = 3  // runs once more, bumps to 103 itself, and stops there
      #expect(runs.values == [0, 3])
      token.cancel()
    }

    @Test @UIActor func coalescedDeliveryRunsOncePerBurstOnTheActor() async {
      let image = ImageAdjustments()
      let (runs, run) = AsyncStream<Double>.makeStream()
      let token = observeCoalesced {
        run.yield(image.brightness)
      }
      var iterator = runs.makeAsyncIterator()
      #expect(await iterator.next() == 0)  // the first run happened synchronously
      image.brightness = 0.1
      image.brightness = 0.2
      image.brightness = 0.3
      #expect(await iterator.next() == 0.3)  // one run for the whole burst
      image.contrast = 1  // not read
      image.brightness = 0.4
      #expect(await iterator.next() == 0.4)
      token.cancel()
      run.finish()
      image.brightness = 0.5
      #expect(await iterator.next() == nil)
    }
  }
}

extension ContinuousTrackingSuites {
  @Suite("Per-property value streams")
  struct ValueStreamTests {
    @Test @UIActor func valuesOfAKeyPath() async {
      let image = ImageAdjustments()
      var values = image.values(of: \.saturation).makeAsyncIterator()
      #expect(await values.next() == 0)
      image.saturation = 0.2
      image.saturation = 0.6
      #expect(await values.next() == 0.6)
      image.brightness = 1  // other property: no value
      image.saturation = 0.9
      #expect(await values.next() == 0.9)
    }

    @Test func onChangeGivesOldAndNewValues() {
      let meter = Meter()
      let changes = Received<String>()
      let token = meter.onChange(of: \.level) { old, new in changes.append("\(old)->\(new)") }
      meter.level = 1
      meter.name = "other"
      meter.level = 4
      token.cancel()
      meter.level = 9
      #expect(changes.values == ["0->1", "1->4"])
    }
  }
}
