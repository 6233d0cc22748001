import Testing
@_spi(Testing) import Tracking

extension LifetimeSuites {
  @Suite("TrackingScope")
  struct TrackingScopeTests {
    @Test func ownsTheObservationsStartedInItsRunAndEndsThemWhenCancelled() {
      let meter = Meter()
      let seen = Received<Int>()
      let scope = TrackingScope()
      scope.run {
        _ = observe { seen.append(meter.level) }  // the token is dropped: the scope keeps it
      }
      meter.level = 1
      scope.cancel()
      meter.level = 2
      #expect(seen.values == [0, 1])
      #expect(scope.isCancelled)
    }

    @Test func releasingTheScopeEndsWhatItOwns() {
      let meter = Meter()
      let seen = Received<Int>()
      var scope: TrackingScope? = TrackingScope()
      scope?.run { _ = observe { seen.append(meter.level) } }
      meter.level = 1
      scope = nil
      meter.level = 2
      #expect(seen.values == [0, 1])
    }

    @Test func aTokenCancelledByHandEndsOnlyThatObservation() {
      let meter = Meter()
      let levels = Received<Int>()
      let names = Received<String>()
      let scope = TrackingScope()
      let token = scope.run {
        _ = observe { names.append(meter.name) }
        return observe { levels.append(meter.level) }
      }
      token.cancel()
      meter.level = 1
      meter.name = "b"
      #expect(levels.values == [0])
      #expect(names.values == ["meter", "b"])
      scope.cancel()
    }

    @Test func aNestedScopeEndsWithItsParent() {
      let meter = Meter()
      let seen = Received<Int>()
      let parent = TrackingScope()
      let child = parent.run { TrackingScope() }
      child.run { _ = observe { seen.append(meter.level) } }
      parent.cancel()
      #expect(child.isCancelled)
      meter.level = 1
      #expect(seen.values == [0])
    }

    @Test func whatIsStartedInACancelledScopeEndsAtOnce() {
      let meter = Meter()
      let seen = Received<Int>()
      let scope = TrackingScope()
      scope.cancel()
      let token = scope.run { observe { seen.append(meter.level) } }
      #expect(token.isCancelled)
      meter.level = 1
      #expect(seen.values == [])  // ended before its first run
    }

    @Test func stopsTheDerivedValuesMadeInIt() {
      let counter = Counter()
      let scope = TrackingScope()
      let doubled = scope.run { Derived { counter.count * 2 } }
      #expect(doubled.value == 0)
      #expect(doubled.value == 0)
      #expect(doubled.recomputeCount == 1)
      scope.cancel()
      #expect(doubled.isStopped)
      // Stopped: no more observation of the input, and each read computes afresh.
      counter.count = 2
      #expect(doubled.value == 4)
      #expect(doubled.value == 4)
      #expect(doubled.recomputeCount == 3)
    }

    @Test func anObservationRunDoesNotOwnTheDerivedValuesMadeInIt() {
      let counter = Counter()
      let made = Received<Derived<Int>>()
      let token = observe {
        _ = counter.label
        made.append(Derived { counter.count + 1 })
      }
      counter.label = "again"  // a new run
      #expect(made.values.allSatisfy { !$0.isStopped })
      token.cancel()
    }

    @Test func endsTheIterationsOfTheSequencesMadeInIt() async {
      let meter = Meter()
      let scope = TrackingScope()
      let levels = scope.run { TrackedValues { meter.level } }
      var iterator = levels.makeAsyncIterator()
      #expect(await iterator.next() == 0)
      scope.cancel()
      #expect(await iterator.next() == nil)
      // An iteration started after the scope ended ends at once.
      var late = levels.makeAsyncIterator()
      #expect(await late.next() == nil)
    }

    @Test func cancelsTheTasksItStarted() async {
      let scope = TrackingScope()
      let task = scope.task {
        while !Task.isCancelled { await Task.yield() }
      }
      scope.cancel()
      await task.value
      #expect(task.isCancelled)
    }

    @Test func scopesAreEqualOnlyToThemselves() {
      let a = TrackingScope()
      let b = TrackingScope()
      #expect(a == a)
      #expect(a != b)
      #expect(Set([a, b, a]).count == 2)
    }
  }
}
