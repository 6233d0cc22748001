import Testing
import TrackingTesting

extension TrackingTestingSuites {
  @Suite("expectNoLeaks")
  struct ExpectNoLeaksTests {
    @Test func theAsynchronousFormChecksTheTasksItAwaited() async throws {
      let meter = Meter()
      try await expectNoLeaks {
        let task = Task {
          let token = observe { _ = meter.level }
          await Task.yield()
          token.cancel()
        }
        await task.value
      }
    }

    @Test func passesWhenEverythingStartedEnded() throws {
      let meter = Meter()
      let value = try expectNoLeaks {
        let token = observe { _ = meter.level }
        let scope = TrackingScope()
        scope.run { _ = observe { _ = meter.name } }
        _ = Derived { meter.level * 2 }.value
        token.cancel()
        scope.cancel()
        return 42
      }
      #expect(value == 42)
    }

    @Test func listsTheObservationThatIsStillAliveWithWhereItStarted() throws {
      let meter = Meter()
      var kept: TrackingToken?
      var thrown: TrackingTestError?
      let line = #line + 2
      do {
        try expectNoLeaks { kept = observe { _ = meter.level } }
      } catch {
        thrown = error as? TrackingTestError
      }
      guard case .stillAlive(let things, _) = thrown else {
        Issue.record("expected .stillAlive, got \(String(describing: thrown))")
        return
      }
      #expect(things.count == 1)
      #expect(
        things.first?.hasPrefix("an observation started at TrackingTestingTests/ExpectNoLeaksTests.swift:\(line)") == true,
        "\(things)")
      #expect(things.first?.contains("level") == true, "\(things)")
      kept?.cancel()
    }

    @Test func listsAliveScopesAndDerivedValues() throws {
      let meter = Meter()
      var scope: TrackingScope?
      var doubled: Derived<Int>?
      let error = #expect(throws: TrackingTestError.self) {
        try expectNoLeaks {
          scope = TrackingScope()
          doubled = Derived { meter.level * 2 }
        }
      }
      guard case .stillAlive(let things, _) = error else {
        Issue.record("expected .stillAlive, got \(String(describing: error))")
        return
      }
      #expect(things.count == 2)
      #expect(things.contains { $0.hasPrefix("a TrackingScope started at") && $0.hasSuffix("owns 0 thing(s)") })
      #expect(things.contains { $0.hasPrefix("a derived value started at") })
      #expect(error?.description.contains("but 2 are:") == true)
      _ = (scope, doubled)
    }

    @Test func anOwnerBoundObservationWhoseOwnerIsGoneIsNotALeak() throws {
      let meter = Meter()
      try expectNoLeaks {
        final class Screen {}
        var screen: Screen? = Screen()
        observe(screen!) { _ in _ = meter.level }
        screen = nil
        meter.level = 1  // the observation finds its owner gone and ends
      }
    }
  }
}
