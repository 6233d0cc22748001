import Testing
@_spi(Testing) import Tracking

extension LifetimeSuites {
  @Suite("What an observation's run owns")
  struct RunOwnershipTests {
    @Test func anInnerObservationEndsBeforeTheOuterRunsAgainSoNoneAccumulate() {
      let meter = Meter()
      let inner = Received<String>()
      let outer = observe {
        let level = meter.level
        _ = observe { inner.append("\(level):\(meter.name)") }
      }
      meter.level = 1
      meter.level = 2
      let before = inner.values.count
      meter.name = "renamed"
      // Only the inner observation of the latest outer run is alive.
      #expect(inner.values.count == before + 1)
      #expect(inner.values.last == "2:renamed")
      outer.cancel()
    }

    @Test func theInnerObservationsReadsDoNotReRunTheOuterOne() {
      let meter = Meter()
      let outerRuns = Received<Int>()
      let outer = observe {
        outerRuns.append(meter.level)
        _ = observe { _ = meter.name }
      }
      meter.name = "inner only"
      #expect(outerRuns.values == [0])
      outer.cancel()
    }

    @Test func cancellingTheOuterObservationEndsTheInnerOne() {
      let meter = Meter()
      let inner = Received<String>()
      let outer = observe {
        _ = meter.level
        _ = observe { inner.append(meter.name) }
      }
      outer.cancel()
      meter.name = "after"
      #expect(inner.values == ["meter"])
    }

    @Test func anInnerObservationCanOutliveTheRunInAScopeOfItsOwn() {
      let meter = Meter()
      let kept = TrackingScope()
      let inner = Received<String>()
      let outer = observe {
        _ = meter.level
        kept.run { _ = observe { inner.append(meter.name) } }
      }
      meter.level = 1  // the outer run again: the kept scope's observations stay
      meter.name = "x"
      #expect(inner.values.filter { $0 == "x" }.count == 2)
      outer.cancel()
      kept.cancel()
    }
  }
}
