import Testing
@_spi(Testing) import Tracking

extension LifetimeSuites {
  @Suite("observe(owner)")
  struct OwnerBoundObservationTests {
    @Test func aModelObservingItselfFromItsInitializerIsReleasedWithItsObservation() throws {
      weak var released: WordCounter?
      try expectNoLeaksInline {
        let counter = WordCounter(text: "one two")
        #expect(counter.words == 2)
        counter.text = "one two three"
        #expect(counter.words == 3)
        released = counter
      }
      #expect(released == nil)
    }

    @Test func theModelsSwiftUIThrowsAwayAreReleased() {
      // SwiftUI may evaluate a `@State` model's initial value several times and keep
      // one: the others must go, and their observations with them.
      weak var first: WordCounter?
      weak var second: WordCounter?
      var kept: WordCounter?
      do {
        let a = WordCounter()
        let b = WordCounter()
        first = a
        second = b
        kept = WordCounter(text: "kept")
      }
      #expect(first == nil)
      #expect(second == nil)
      kept?.text = "still observed here"
      #expect(kept?.words == 3)
    }

    @Test func endsAtTheNextChangeWhenTheOwnerWasAnotherObject() {
      final class Screen {}
      let meter = Gauge()
      let seen = Received<Int>()
      var screen: Screen? = Screen()
      observe(screen!) { _ in seen.append(meter.level) }
      meter.level = 1
      screen = nil
      meter.level = 2  // finds the owner gone: ends without running
      meter.level = 3
      #expect(seen.values == [0, 1])
      #expect(meter.observerCount == 0)
    }

    @Test func neverKeepsTheOwnerAlive() {
      final class Screen {}
      let meter = Meter()
      weak var released: Screen?
      do {
        let screen = Screen()
        released = screen
        observe(screen) { _ in _ = meter.level }
      }
      #expect(released == nil)
    }

    @Test func endsWithTheScopeItWasStartedIn() {
      final class Screen {}
      let meter = Meter()
      let screen = Screen()
      let seen = Received<Int>()
      let scope = TrackingScope()
      scope.run { observe(screen) { _ in seen.append(meter.level) } }
      scope.cancel()
      meter.level = 1
      #expect(seen.values == [0])
    }
  }
}

/// Runs `body` under the leak check, as a test of this target would.
func expectNoLeaksInline(_ body: () throws -> Void) throws {
  let recorder = LifetimeRecorder()
  try recorder.record(body)
  #expect(recorder.aliveDescriptions == [])
}
