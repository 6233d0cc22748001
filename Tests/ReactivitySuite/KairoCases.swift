import Tracking

/// One of the suite's "Kairo" cases: a graph built once, then an iteration that runs
/// batches of writes and checks the values the suite checks (`console.assert`).
public struct KairoCase: Sendable {
  public let name: String
  /// Builds the graph in `graph` and returns one iteration of the case.
  public let build: @Sendable (SuiteGraph) -> () throws(SuiteCheckFailure) -> Void
  /// The same work written by hand (no tracking): the floor.
  public let byHand: @Sendable () -> () -> Void
  /// Effect runs and computations over three iterations after the build (the suite's
  /// warm-up pattern), for a lazy graph with an equality cut-off. How each figure
  /// follows from the case is in `ReactivitySuite.md` (Benchmarks/RESULTS.md).
  public let expected: (effects: Int, computations: Int)

  /// The suite runs each case this many times per sample.
  public static let iterationsPerSample = 500

  public static let all: [KairoCase] = [
    avoidablePropagation, broadPropagation, deepPropagation, diamond, mux, repeatedObservers, triangle,
    unstable, molBench,
  ]
}

extension KairoCase {
  /// A chain whose second link always returns 0: nothing past it should recompute.
  /// Per iteration 1 001 batches change the head; each recomputes the first two links.
  public static let avoidablePropagation = KairoCase(
    name: "avoidablePropagation",
    build: { g in
      let head = g.signal(0)
      let computed1 = g.computed { head.value }
      let computed2 = g.computed { _ = computed1.value; return 0 }
      let computed3 = g.computed { busy(); return computed2.value + 1 }
      let computed4 = g.computed { computed3.value + 2 }
      let computed5 = g.computed { computed4.value + 3 }
      g.effect {
        _ = computed5.value
        busy()
      }
      return { () throws(SuiteCheckFailure) in
        g.batch { head.value = 1 }
        try expectSuite(computed5.value, 6, "computed5")
        for i in 0..<1000 {
          g.batch { head.value = i }
          try expectSuite(computed5.value, 6, "computed5")
        }
      }
    },
    byHand: {
      let head = HandCell(0)
      var computed1 = 0
      var computed2 = 0
      return {
        func write(_ value: Int) {
          guard head.set(value) else { return }
          computed1 = head.value
          let next = sinkThrough(computed1, 0)
          guard next != computed2 else { return }
          computed2 = next
          busy()
        }
        write(1)
        for i in 0..<opaqueCount(1000) { write(i) }
      }
    },
    expected: (effects: 0, computations: 3 * 1001 * 2))

  /// 50 branches of two computeds and an effect over one head: every write reaches all.
  public static let broadPropagation = KairoCase(
    name: "broadPropagation",
    build: { g in
      let head = g.signal(0)
      var last: Derived<Int>?
      let counter = Counter()
      for i in 0..<50 {
        let current = g.computed { head.value + i }
        let current2 = g.computed { current.value + 1 }
        g.effect {
          _ = current2.value
          counter.count += 1
        }
        last = current2
      }
      let end = last!
      return { () throws(SuiteCheckFailure) in
        g.batch { head.value = 1 }
        counter.count = 0
        for i in 0..<50 {
          g.batch { head.value = i }
          try expectSuite(end.value, i + 50, "last")
        }
        try expectSuite(counter.count, 50 * 50, "effect runs")
      }
    },
    byHand: {
      let head = HandCell(0)
      return {
        func write(_ value: Int) {
          guard head.set(value) else { return }
          for i in 0..<opaqueCount(50) { sink(head.value + i + 1) }
        }
        write(1)
        for i in 0..<opaqueCount(50) { write(i) }
      }
    },
    expected: (effects: 3 * 51 * 50, computations: 3 * 51 * 100))

  /// A chain of 50 computeds and one effect at its end.
  public static let deepPropagation = KairoCase(
    name: "deepPropagation",
    build: { g in
      let head = g.signal(0)
      var current = g.computed { head.value + 1 }
      for _ in 1..<50 {
        let previous = current
        current = g.computed { previous.value + 1 }
      }
      let end = current
      let counter = Counter()
      g.effect {
        _ = end.value
        counter.count += 1
      }
      return { () throws(SuiteCheckFailure) in
        g.batch { head.value = 1 }
        counter.count = 0
        for i in 0..<50 {
          g.batch { head.value = i }
          try expectSuite(end.value, 50 + i, "end of the chain")
        }
        try expectSuite(counter.count, 50, "effect runs")
      }
    },
    byHand: {
      let head = HandCell(0)
      return {
        func write(_ value: Int) {
          guard head.set(value) else { return }
          var value = head.value
          for _ in 0..<opaqueCount(50) { value = sinkThrough(value, value + 1) }
          sink(value)
        }
        write(1)
        for i in 0..<opaqueCount(50) { write(i) }
      }
    },
    expected: (effects: 3 * 51, computations: 3 * 51 * 50))

  /// Five computeds over one head, summed by a sixth, read by one effect.
  public static let diamond = KairoCase(
    name: "diamond",
    build: { g in
      let head = g.signal(0)
      let current = (0..<5).map { _ in g.computed { head.value + 1 } }
      let sum = g.computed { current.reduce(0) { $0 + $1.value } }
      let counter = Counter()
      g.effect {
        _ = sum.value
        counter.count += 1
      }
      return { () throws(SuiteCheckFailure) in
        g.batch { head.value = 1 }
        try expectSuite(sum.value, 2 * 5, "sum")
        counter.count = 0
        for i in 0..<500 {
          g.batch { head.value = i }
          try expectSuite(sum.value, (i + 1) * 5, "sum")
        }
        try expectSuite(counter.count, 500, "effect runs")
      }
    },
    byHand: {
      let head = HandCell(0)
      return {
        func write(_ value: Int) {
          guard head.set(value) else { return }
          var sum = 0
          for _ in 0..<opaqueCount(5) { sum += sinkThrough(sum, head.value + 1) }
          sink(sum)
        }
        write(1)
        for i in 0..<opaqueCount(500) { write(i) }
      }
    },
    expected: (effects: 3 * 501, computations: 3 * 501 * 6))

  /// 100 heads gathered into one computed, split again into 100 computeds (+1 each),
  /// each read by an effect: a write of one head reaches one effect.
  public static let mux = KairoCase(
    name: "mux",
    build: { g in
      let heads = (0..<100).map { _ in g.signal(0) }
      let mux = g.computed { heads.map(\.value) }
      let splitted = (0..<100)
        .map { index in g.computed { mux.value[index] } }
        .map { x in g.computed { x.value + 1 } }
      for x in splitted { g.effect { _ = x.value } }
      return { () throws(SuiteCheckFailure) in
        for i in 0..<10 {
          g.batch { heads[i].value = i }
          try expectSuite(splitted[i].value, i + 1, "splitted[\(i)]")
        }
        for i in 0..<10 {
          g.batch { heads[i].value = i * 2 }
          try expectSuite(splitted[i].value, i * 2 + 1, "splitted[\(i)]")
        }
      }
    },
    byHand: {
      let heads = (0..<100).map { _ in HandCell(0) }
      return {
        func write(_ index: Int, _ value: Int) {
          guard heads[index].set(value) else { return }
          let gathered = heads.map(\.value)
          sink(gathered[index] + 1)
        }
        for i in 0..<opaqueCount(10) { write(i, i) }
        for i in 0..<opaqueCount(10) { write(i, i * 2) }
      }
    },
    // 18 heads change per iteration (writing 0 over 0 is no change); each recomputes
    // the gathering computed, the 100 splits, and the one +1 whose split changed.
    expected: (effects: 3 * 18, computations: 3 * 18 * 102))

  /// One computed that reads the head 30 times, and an effect.
  public static let repeatedObservers = KairoCase(
    name: "repeatedObservers",
    build: { g in
      let head = g.signal(0)
      let current = g.computed {
        var result = 0
        for _ in 0..<30 { result += head.value }
        return result
      }
      let counter = Counter()
      g.effect {
        _ = current.value
        counter.count += 1
      }
      return { () throws(SuiteCheckFailure) in
        g.batch { head.value = 1 }
        try expectSuite(current.value, 30, "current")
        counter.count = 0
        for i in 0..<100 {
          g.batch { head.value = i }
          try expectSuite(current.value, i * 30, "current")
        }
        try expectSuite(counter.count, 100, "effect runs")
      }
    },
    byHand: {
      let head = HandCell(0)
      return {
        func write(_ value: Int) {
          guard head.set(value) else { return }
          var result = 0
          for _ in 0..<opaqueCount(30) { result += head.value }
          sink(result)
        }
        write(1)
        for i in 0..<opaqueCount(100) { write(i) }
      }
    },
    expected: (effects: 3 * 101, computations: 3 * 101))

  /// A chain of 10 (the last never read) and a computed that sums the head and the
  /// first nine links.
  public static let triangle = KairoCase(
    name: "triangle",
    build: { g in
      let head = g.signal(0)
      var links: [() -> Int] = []
      var current: () -> Int = { head.value }
      for _ in 0..<10 {
        let previous = current
        links.append(previous)
        let next = g.computed { previous() + 1 }
        current = { next.value }
      }
      let list = links
      let sum = g.computed { list.reduce(0) { $0 + $1() } }
      let counter = Counter()
      g.effect {
        _ = sum.value
        counter.count += 1
      }
      return { () throws(SuiteCheckFailure) in
        let constant = (1...10).reduce(0, +)
        g.batch { head.value = 1 }
        try expectSuite(sum.value, constant, "sum")
        counter.count = 0
        for i in 0..<100 {
          g.batch { head.value = i }
          try expectSuite(sum.value, constant - 10 + i * 10, "sum")
        }
        try expectSuite(counter.count, 100, "effect runs")
      }
    },
    byHand: {
      let head = HandCell(0)
      return {
        func write(_ value: Int) {
          guard head.set(value) else { return }
          var link = head.value
          var sum = link
          for _ in 0..<opaqueCount(9) {
            link = sinkThrough(link, link + 1)
            sum += link
          }
          sink(sum)
        }
        write(1)
        for i in 0..<opaqueCount(100) { write(i) }
      }
    },
    expected: (effects: 3 * 101, computations: 3 * 101 * 10))

  /// A computed that reads one of two others depending on the head's parity: its
  /// dependencies change at every write.
  public static let unstable = KairoCase(
    name: "unstable",
    build: { g in
      let head = g.signal(0)
      let double = g.computed { head.value * 2 }
      let inverse = g.computed { -head.value }
      let current = g.computed {
        var result = 0
        for _ in 0..<20 { result += head.value % 2 != 0 ? double.value : inverse.value }
        return result
      }
      let counter = Counter()
      g.effect {
        _ = current.value
        counter.count += 1
      }
      return { () throws(SuiteCheckFailure) in
        g.batch { head.value = 1 }
        try expectSuite(current.value, 40, "current")
        counter.count = 0
        for i in 0..<100 { g.batch { head.value = i } }
        try expectSuite(counter.count, 100, "effect runs")
      }
    },
    byHand: {
      let head = HandCell(0)
      return {
        func write(_ value: Int) {
          guard head.set(value) else { return }
          let other = head.value % 2 != 0 ? head.value * 2 : -head.value
          var result = 0
          for _ in 0..<opaqueCount(20) { result += sinkThrough(result, other) }
          sink(result)
        }
        write(1)
        for i in 0..<opaqueCount(100) { write(i) }
      }
    },
    expected: (effects: 3 * 101, computations: 3 * 101 * 2))

  /// $mol_wire's benchmark: two signals, five computeds (some expensive), three
  /// effects, two batches per iteration.
  public static let molBench = KairoCase(
    name: "molBench",
    build: { g in
      let results = Counter()
      let a = g.signal(0)
      let b = g.signal(0)
      let c = g.computed { a.value % 2 + b.value % 2 }
      let d = g.computed { (0..<5).map { MolItem(x: $0 + a.value % 2 - b.value % 2) } }
      let e = g.computed { hard(c.value + a.value + d.value[0].x) }
      let f = g.computed { hard(d.value[2].x != 0 ? d.value[2].x : b.value) }
      let gee = g.computed { c.value + (c.value != 0 ? c.value : e.value % 2) + d.value[4].x + f.value }
      g.effect { sink(hard(gee.value)); results.count += 1 }  // H
      g.effect { sink(gee.value); results.count += 1 }  // I
      g.effect { sink(hard(f.value)); results.count += 1 }  // J
      var i = 0
      return { () throws(SuiteCheckFailure) in
        i += 1
        results.count = 0
        let step = i
        g.batch {
          b.value = 1
          a.value = 1 + step * 2
        }
        g.batch {
          a.value = 2 + step * 2
          b.value = 2
        }
      }
    },
    byHand: {
      let a = HandCell(0)
      let b = HandCell(0)
      var i = 0
      return {
        i += 1
        func evaluate() {
          let c = a.value % 2 + b.value % 2
          let d = (0..<5).map { MolItem(x: $0 + a.value % 2 - b.value % 2) }
          let e = hard(c + a.value + d[0].x)
          let f = hard(d[2].x != 0 ? d[2].x : b.value)
          let g = c + (c != 0 ? c : e % 2) + d[4].x + f
          sink(hard(g))
          sink(g)
          sink(hard(f))
        }
        _ = b.set(1)
        _ = a.set(1 + i * 2)
        evaluate()
        _ = a.set(2 + i * 2)
        _ = b.set(2)
        evaluate()
      }
    },
    // Per iteration: the first batch recomputes c, d and g (e is no longer read: c is
    // not 0), the second c, d, e and g; f never changes (d stays equal), so J never
    // runs, while H and I run after each batch.
    expected: (effects: 3 * 4, computations: 3 * 7))
}

/// An element of molBench's list.
public struct MolItem: Equatable, Sendable {
  public var x: Int
}

/// molBench's expensive function.
@inline(never)
public func hard(_ n: Int) -> Int { n + fibonacci(opaqueCount(16)) }

@inline(never)
func fibonacci(_ n: Int) -> Int { n < 2 ? 1 : fibonacci(n - 1) + fibonacci(n - 2) }

/// A plain cell for the by-hand floors: a write of an equal value is no change.
public final class HandCell {
  public private(set) var value: Int
  public init(_ value: Int) { self.value = value }

  /// Stores `value`; returns whether it differs from the previous one.
  @inline(__always)
  public func set(_ value: Int) -> Bool {
    guard value != self.value else { return false }
    self.value = value
    return true
  }
}

/// `value` through a call the optimizer cannot see into (it depends on `previous`,
/// so that a loop of these is not folded into a constant).
@inline(never) @_optimize(none)
public func sinkThrough(_ previous: Int, _ value: Int) -> Int { value }
