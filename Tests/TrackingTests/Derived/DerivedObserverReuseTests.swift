import Testing
@_spi(Testing) import Tracking

/// Holds a number; counts the instances alive, so a test can tell when a cached value
/// is released.
private final class CountedBox: @unchecked Sendable {
  nonisolated(unsafe) static var alive = 0
  let number: Int
  init(_ number: Int) {
    self.number = number
    Self.alive += 1
  }
  deinit { Self.alive -= 1 }
}

extension ContinuousTrackingSuites {
  /// A derived value keeps the observer it installed on its inputs while its
  /// recomputations read the same inputs (issue 18), as continuous observation does.
  @Suite("Derived: one input observer while the inputs stay the same")
  struct DerivedObserverReuseTests {
    @Test func recomputationsThatReadTheSameInputsKeepTheInstalledObserver() {
      let inputs = DerivedInputs()
      let sum = Derived { inputs.a + inputs.b }
      let runs = Received<Int>()
      let token = observe { runs.append(sum.value) }
      for value in 2...101 {
        inputs.a = value
        #expect(inputs.observerCount == 1)
      }
      #expect(runs.values == [11] + (2...101).map { $0 + 10 })
      #expect(sum.recomputeCount == 101)
      #expect(sum.inputRelinkCount == 1)
      token.cancel()
      inputs.a = 0  // nobody observes `sum`: its observer is cancelled
      #expect(inputs.observerCount == 0)
    }

    @Test func aRecomputationThatReadsOtherInputsInstallsAnotherObserver() {
      let inputs = DerivedInputs()
      let chosen = Derived { inputs.useA ? inputs.a : inputs.b }
      let runs = Received<Int>()
      let token = observe { runs.append(chosen.value) }
      inputs.a = 2
      #expect(chosen.inputRelinkCount == 1)
      inputs.useA = false  // now reads `useA` and `b`
      #expect(chosen.inputRelinkCount == 2)
      inputs.a = 3  // no longer an input
      inputs.b = 20
      #expect(runs.values == [1, 2, 10, 20])
      inputs.useA = true
      inputs.b = 30  // no longer an input
      inputs.a = 4
      #expect(runs.values == [1, 2, 10, 20, 3, 4])
      #expect(chosen.inputRelinkCount == 3)
      token.cancel()
    }

    @Test func writesNobodyReadsInBetweenDoNotRecomputeAndAreNotLost() {
      let inputs = DerivedInputs()
      let sum = Derived { inputs.a + inputs.b }
      let fired = Received<Int>()
      withTracking { _ = sum.value } didSet: { _ in fired.append(0) }
      // Fires the one-shot tracking, which needs to know that `sum` changed: it is
      // recomputed once, at the end of the write.
      inputs.a = 2
      #expect(inputs.observerCount == 1)
      inputs.a = 3  // nobody observes `sum` any more: its observer is cancelled
      inputs.b = 20
      #expect(inputs.observerCount == 0)
      #expect(fired.values == [0])
      #expect(sum.recomputeCount == 2)
      #expect(sum.value == 23)
      #expect(sum.inputRelinkCount == 2)
      withTracking { _ = sum.value } didSet: { _ in fired.append(sum.value) }
      inputs.b = 30
      #expect(fired.values == [0, 33])
    }

    @Test func writesTheClosureItselfMakesAreNotChangesForIt() {
      let inputs = DerivedInputs()
      // `+=` reads `b` too: the closure writes an input it reads.
      let counted = Derived { () -> Int in
        inputs.b += 1
        return inputs.a
      }
      #expect(counted.value == 1)
      #expect(counted.value == 1)  // a read outside any batch: still cached
      let runs = Received<Int>()
      let token = observe { runs.append(counted.value) }  // inside batches from here on
      inputs.a = 2
      inputs.a = 3
      #expect(runs.values == [1, 2, 3])  // one run per write, and no loop
      #expect(counted.recomputeCount == 3)
      #expect(counted.isCached)
      #expect(counted.inputRelinkCount == 1)
      token.cancel()
    }

    @Test func aReplacedOrReleasedCachedValueIsReleased() {
      let inputs = DerivedInputs()
      CountedBox.alive = 0
      do {
        let boxed = Derived { CountedBox(inputs.a) }
        let token = observe { _ = boxed.value.number }
        #expect(CountedBox.alive == 1)
        for value in 2...10 { inputs.a = value }
        #expect(boxed.value.number == 10)
        #expect(CountedBox.alive == 1)  // each recomputation replaced the cached box
        token.cancel()
      }
      #expect(CountedBox.alive == 0)  // released with the `Derived`
    }
  }
}
