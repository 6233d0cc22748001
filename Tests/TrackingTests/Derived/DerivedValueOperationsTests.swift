import Testing
@_spi(Testing) import Tracking

/// A value that counts its live instances, so that a test can see that the cache and
/// the slot a recomputation computes into destroy every value they hold.
private final class Instance {
  let counter: InstanceCounter
  init(_ counter: InstanceCounter) {
    counter.live += 1
    self.counter = counter
  }
  deinit { counter.live -= 1 }
}

private final class InstanceCounter { var live = 0 }

/// A value holding an `Instance`, equal to another when their keys are.
private struct Keyed: Equatable {
  let key: Int
  let instance: Instance
  static func == (lhs: Keyed, rhs: Keyed) -> Bool { lhs.key == rhs.key }
}

/// The typed side of a `Derived` (`DerivedValueOperations`): the values it computes,
/// keeps, replaces and drops, for each way of telling two values apart.
@Suite("A Derived value's storage")
struct DerivedValueOperationsTests {
  @Test("An equal value is dropped, a different one replaces the cache, and the last one goes with the Derived")
  func equatableValuesAreDestroyed() {
    let counter = InstanceCounter()
    let inputs = DerivedInputs()
    var derived: Derived<Keyed>? = Derived { Keyed(key: inputs.a / 2, instance: Instance(counter)) }
    #expect(derived?.value.key == 0)
    #expect(counter.live == 1)
    inputs.a = 0  // 0 / 2 == 1 / 2: an equal value, dropped
    #expect(derived?.value.key == 0)
    #expect(derived?.recomputeCount == 2)
    #expect(counter.live == 1)
    inputs.a = 4  // a different value replaces the cached one
    #expect(derived?.value.key == 2)
    #expect(counter.live == 1)
    derived = nil
    #expect(counter.live == 0)
  }

  @Test("A value told apart by the caller's rule, and one that is not Equatable")
  func customAndNonEquatableRules() {
    let inputs = DerivedInputs()
    let rounded = Derived(isEqual: { $0 / 10 == $1 / 10 }) { inputs.a }
    let unequatable = Derived { Unequatable(number: inputs.a / 100) }
    let roundedSeen = Received<Int>()
    let unequatableSeen = Received<Int>()
    let first = observe { roundedSeen.append(rounded.value) }
    let second = observe { unequatableSeen.append(unequatable.value.number) }
    inputs.a = 5  // 1 and 5 are within ten: no change
    #expect(rounded.value == 1)
    inputs.a = 12
    #expect(rounded.value == 12)
    #expect(roundedSeen.values == [1, 12])
    // Not Equatable: every recomputation is a change, even to an equal value.
    #expect(unequatableSeen.values == [0, 0, 0])
    first.cancel()
    second.cancel()
  }

  /// The value a recomputation replaces is destroyed once the graph lock is left: its
  /// deinit may read a derived value (with the lock held, that read would wait for the
  /// lock forever). Both ways a value is stored: by a plain recomputation, and by one
  /// that announces the change to a one-shot tracking.
  @Test("A replaced value whose deinit reads a derived value", arguments: [false, true])
  func replacedValueDeinitReadsADerivedValue(announcing: Bool) {
    let inputs = DerivedInputs()
    let other = Derived { inputs.b * 2 }
    let readInDeinit = Received<Int>()
    let derived = Derived { ReadsOnDeinit(number: inputs.a) { readInDeinit.append(other.value) } }
    #expect(derived.value.number == 1)
    let fired = Received<Int>()
    if announcing {
      withTracking { _ = derived.value } onChange: { fired.append(0) }
    }
    inputs.a = 2
    #expect(derived.value.number == 2)
    #expect(readInDeinit.values == [20])
    #expect(fired.values == (announcing ? [0] : []))
  }

  @Test("A value of no size")
  func emptyValue() {
    let inputs = DerivedInputs()
    var count = 0
    let derived = Derived<Void> {
      _ = inputs.a
      count += 1
    }
    derived.value
    inputs.a = 2
    derived.value
    #expect(count == 2)
    #expect(derived.recomputeCount == 2)
  }

  @Test("notifyingOnlyWhenChanged: false counts an equal value as a change")
  func notifyingEveryTime() {
    let inputs = DerivedInputs()
    let eager = Derived(notifyingOnlyWhenChanged: false) { inputs.a / 10 }
    let lazy = Derived(notifyingOnlyWhenChanged: true) { inputs.a / 10 }
    let eagerSeen = Received<Int>()
    let lazySeen = Received<Int>()
    let first = observe { eagerSeen.append(eager.value) }
    let second = observe { lazySeen.append(lazy.value) }
    inputs.a = 2
    #expect(eagerSeen.values == [0, 0])
    #expect(lazySeen.values == [0])
    first.cancel()
    second.cancel()
  }
}

extension DerivedValueOperationsTests {
  @Test("A value that holds no references reads back as computed, at every size")
  func trivialValuesOfEverySize() {
    readsBack { _ in Empty() }
    readsBack { $0 % 2 == 0 }
    readsBack { Int16($0) * 300 }
    readsBack { Bytes3(a: UInt8($0), b: 7, c: UInt8($0 + 1)) }
    readsBack { Float($0) / 4 }
    readsBack { $0 * 1_000_003 }
    readsBack { Packed(word: UInt32($0), low: 3, high: UInt16($0)) }
    readsBack { TwoWords(x: $0, y: -$0) }
    readsBack { Odd(x: $0, y: 2 * $0, flag: $0 > 1) }
    readsBack { String(repeating: "x", count: $0) }  // holds a reference: the typed copy
  }

  /// Reads a `Derived` of `make(a)` outside any run, from an observation's run and from
  /// another `Derived`'s, before and after `a` changes.
  private func readsBack<Value: Equatable & Sendable>(
    _ make: @escaping @Sendable (Int) -> Value, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let inputs = DerivedInputs()
    let derived = Derived { make(inputs.a) }
    let reader = Derived { [derived.value] }
    let seen = Received<Value>()
    let token = observe { seen.append(derived.value) }
    #expect(derived.value == make(1), sourceLocation: sourceLocation)
    #expect(reader.value == [make(1)], sourceLocation: sourceLocation)
    inputs.a = 2
    #expect(derived.value == make(2), sourceLocation: sourceLocation)
    #expect(reader.value == [make(2)], sourceLocation: sourceLocation)
    let expected = make(1) == make(2) ? [make(1)] : [make(1), make(2)]
    #expect(seen.values == expected, sourceLocation: sourceLocation)
    token.cancel()
  }

  @Test("A run that reads a value several times in a row depends on it once, and sees each change")
  func readsInARow() {
    let inputs = DerivedInputs()
    let inner = Derived { inputs.a * 2 }
    let outer = Derived { inner.value + inner.value + inner.value }
    let seen = Received<Int>()
    let token = observe { seen.append(outer.value + outer.value) }
    inputs.a = 5
    inputs.a = 6
    #expect(seen.values == [12, 60, 72])
    #expect(inner.recomputeCount == 3)
    #expect(outer.recomputeCount == 3)
    // The observation, `outer`, `inner` and the object: one edge between each.
    #expect(TrackingGraph.around(token).edges.count == 3)
    token.cancel()
  }
}

private struct Empty: Equatable, Sendable {}

private struct Bytes3: Equatable, Sendable {
  var a, b, c: UInt8
}

/// Eight bytes, aligned to four.
private struct Packed: Equatable, Sendable {
  var word: UInt32
  var low: UInt16
  var high: UInt16
}

private struct TwoWords: Equatable, Sendable {
  var x, y: Int
}

/// Seventeen bytes: a size with no load of its own.
private struct Odd: Equatable, Sendable {
  var x, y: Int
  var flag: Bool
}

/// A value whose deinit calls `onDeinit`.
private final class ReadsOnDeinit: @unchecked Sendable {
  let number: Int
  let onDeinit: () -> Void
  init(number: Int, onDeinit: @escaping () -> Void) {
    self.number = number
    self.onDeinit = onDeinit
  }
  deinit { onDeinit() }
}

/// A value with no `==`.
private struct Unequatable: Sendable {
  let number: Int
}
