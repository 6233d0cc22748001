import Observation
import OpenCombine
import Tracking

// Every operation, for every flavour where it exists. Both drivers (package-benchmark's
// `TrackingBenchmarks` and the `compare` table) run exactly these closures.
//
// Conventions that keep the comparison fair:
// - all four model flavours and all loops live in this one module, so they get the
//   same optimizer treatment (models are generated: Scripts/generate-models.py);
// - objects and counts pass through `opaque` and results go to `consume`, so nothing is
//   constant-folded, hoisted out of a loop or removed as dead;
// - the loops are written once as `@inline(__always)` generics and instantiated with
//   closure literals, which the optimizer inlines into the specialized loop;
// - callbacks count into `fires`, and the count is checked after the timed part (a
//   correctness check, not a timing assertion).

/// How many callbacks ran; `onChange` closures that capture nothing bump it.
nonisolated(unsafe) var fires = 0

@inline(never) func fire() { fires &+= 1 }

/// Objects cycled through by the per-read and per-write loops.
let poolMask = 63

// MARK: - Loop shapes

/// `n` reads through a pool of 64 objects (so a read cannot be hoisted out of the loop).
@inline(__always)
func readLoop<M>(_ n: Int, _ watch: Stopwatch, _ make: () -> M, _ read: (M) -> Int) {
  let n = opaque(n)
  let objects = (0...poolMask).map { _ in opaque(make()) }
  var sum = 0
  watch.start()
  objects.withUnsafeBufferPointer { buffer in
    for i in 0..<n { sum &+= read(buffer[i & poolMask]) }
  }
  watch.stop()
  consume(sum)
}

/// `n` writes through a pool of 64 objects, each prepared by `prepare` (untimed).
@inline(__always)
func writeLoop<M>(
  _ n: Int, _ watch: Stopwatch, _ make: () -> M, prepare: (M) -> [AnyObject] = { _ in [] },
  _ write: (M, Int) -> Void
) {
  let n = opaque(n)
  let objects = (0...poolMask).map { _ in opaque(make()) }
  let tokens = objects.map(prepare)
  fires = 0
  watch.start()
  objects.withUnsafeBufferPointer { buffer in
    for i in 0..<n { write(buffer[i & poolMask], i) }
  }
  watch.stop()
  precondition(fires == 0, "observers of another property fired")
  consume(tokens)
}

/// One scope per fresh object: `n` objects are made untimed, each is tracked once.
@inline(__always)
func scopeLoop<M>(_ n: Int, _ watch: Stopwatch, _ make: () -> M, _ scope: (M) -> Void) {
  let objects = (0..<opaque(n)).map { _ in opaque(make()) }
  watch.start()
  for object in objects { scope(object) }
  watch.stop()
  consume(objects)
}

/// What a SwiftUI view's body does with its model: Apple's tracking around `read`.
@inline(__always)
func appleTrackedRead<M>(_ model: M, _ read: (M) -> Int) {
  consume(withObservationTracking { read(model) } onChange: { fire() })
}

/// `n` cycles on one object of what a SwiftUI view goes through when its model changes:
/// Apple's tracking around `read`, then `write`, which fires its `onChange`.
@inline(__always)
func appleTrackingCycle<M>(_ n: Int, _ watch: Stopwatch, _ make: () -> M, read: (M) -> Int, write: (M) -> Void) {
  cycleLoop(n, watch, make) { m in
    appleTrackedRead(m, read)
    write(m)
  }
}

/// `object`, after one untimed read of it through `read`.
@inline(__always)
func readOnce<M>(_ object: M, _ read: (M) -> Int) -> M {
  consume(read(object))
  return object
}

/// `n` fresh objects, each with `observers` one-shot observers of p0 installed
/// untimed; the timed part is one write of p0 per object, which fires them all.
@inline(__always)
func fireLoop<M>(
  _ n: Int, _ watch: Stopwatch, observers: Int, _ make: () -> M,
  observe: (M) -> AnyObject?, _ write: (M) -> Void
) {
  let objects = (0..<opaque(n)).map { _ in opaque(make()) }
  var tokens: [AnyObject] = []
  for object in objects {
    for _ in 0..<observers { if let token = observe(object) { tokens.append(token) } }
  }
  fires = 0
  watch.start()
  for object in objects { write(object) }
  watch.stop()
  precondition(fires == objects.count * observers, "expected every observer to fire once")
  consume(tokens)
  consume(objects)
}

/// `n` repetitions of `cycle` on one object; each must fire exactly one callback.
@inline(__always)
func cycleLoop<M>(_ n: Int, _ watch: Stopwatch, _ make: () -> M, _ cycle: (M) -> Void) {
  let n = opaque(n)
  let object = opaque(make())
  fires = 0
  watch.start()
  for _ in 0..<n { cycle(object) }
  watch.stop()
  precondition(fires == n, "expected one callback per cycle")
  consume(object)
}

// MARK: - Relay to Apple

/// Runs an `ours` workload with `TrackingInterop.relaysToAppleObservation` on, and
/// restores the setting afterwards.
func relaying(_ workload: @escaping TimedWorkload) -> TimedWorkload {
  { n, watch in
    let previous = TrackingInterop.relaysToAppleObservation
    TrackingInterop.relaysToAppleObservation = true
    defer { TrackingInterop.relaysToAppleObservation = previous }
    workload(n, watch)
  }
}

// MARK: - The operations

extension Operation {
  // Reads

  static let untrackedRead = Operation(
    "read.untracked", "read 1 property outside any tracking scope",
    iterations: 2_000_000, quick: 100,
    .time([
      .plain: { n, w in readLoop(n, w, Plain4.init) { $0.p0 } },
      .apple: { n, w in readLoop(n, w, Apple4.init) { $0.p0 } },
      .ours: { n, w in readLoop(n, w, Ours4.init) { $0.p0 } },
      .combine: { n, w in readLoop(n, w, Combine4.init) { $0.p0 } },
    ]))

  static let trackedRead1 = Operation(
    "read.tracked.1", "one tracking scope reading 1 property (scope + read + install)",
    iterations: 5_000, quick: 20,
    .time([
      .apple: { n, w in
        scopeLoop(n, w, Apple4.init) { m in consume(withObservationTracking { m.sum1 } onChange: { fire() }) }
      },
      .ours: { n, w in scopeLoop(n, w, Ours4.init) { m in consume(withTracking { m.sum1 } onChange: { fire() }) } },
    ]))

  static let trackedRead10 = Operation(
    "read.tracked.10", "one tracking scope reading 10 distinct properties",
    iterations: 5_000, quick: 20,
    .time([
      .apple: { n, w in
        scopeLoop(n, w, Apple10.init) { m in consume(withObservationTracking { m.sum10 } onChange: { fire() }) }
      },
      .ours: { n, w in scopeLoop(n, w, Ours10.init) { m in consume(withTracking { m.sum10 } onChange: { fire() }) } },
    ]))

  static let trackedRead100 = Operation(
    "read.tracked.100", "one tracking scope reading 100 distinct properties",
    iterations: 1_000, quick: 10,
    .time([
      .apple: { n, w in
        scopeLoop(n, w, Apple100.init) { m in consume(withObservationTracking { m.sum100 } onChange: { fire() }) }
      },
      .ours: { n, w in
        scopeLoop(n, w, Ours100.init) { m in consume(withTracking { m.sum100 } onChange: { fire() }) }
      },
    ]))

  // Writes

  static let write0 = Operation(
    "write.observers.0", "write 1 property, no observer",
    iterations: 2_000_000, quick: 100,
    .time([
      .plain: { n, w in writeLoop(n, w, Plain4.init) { $0.p0 = $1 } },
      .apple: { n, w in writeLoop(n, w, Apple4.init) { $0.p0 = $1 } },
      .ours: { n, w in writeLoop(n, w, Ours4.init) { $0.p0 = $1 } },
      .combine: { n, w in writeLoop(n, w, Combine4.init) { $0.p0 = $1 } },
    ]))

  static let write1 = writeObserved(by: 1, "write 1 property that 1 pending observer watches (fires it)", iterations: 5_000, quick: 20)

  static let write100 = writeObserved(
    by: 100, "write 1 property that 100 pending observers watch (fires all)", iterations: 300, quick: 5)

  /// `write.observers.N`: one write of p0 per fresh object with `observers` one-shot
  /// observers of p0 pending (OpenCombine: `objectWillChange` subscribers).
  static func writeObserved(by observers: Int, _ summary: String, iterations: Int, quick: Int) -> Operation {
    Operation(
      "write.observers.\(observers)", summary, iterations: iterations, quick: quick,
      .time([
        .apple: { n, w in
          fireLoop(n, w, observers: observers, Apple4.init) { m in
            withObservationTracking { consume(m.p0) } onChange: { fire() }
            return nil
          } _: { $0.p0 = 1 }
        },
        .ours: { n, w in
          fireLoop(n, w, observers: observers, Ours4.init) { m in
            withTracking { consume(m.p0) } onChange: { fire() }
            return nil
          } _: { $0.p0 = 1 }
        },
        .combine: { n, w in
          fireLoop(n, w, observers: observers, Combine4.init) { m in
            m.objectWillChange.sink { fire() }
          } _: { $0.p0 = 1 }
        },
      ]))
  }

  static let write100Other = Operation(
    "write.observers.100-other", "write 1 property while 100 observers of another property stay pending",
    iterations: 1_000_000, quick: 100,
    .time([
      .apple: { n, w in
        writeLoop(n, w, Apple4.init, prepare: { m in
          for _ in 0..<100 { withObservationTracking { consume(m.p1) } onChange: { fire() } }
          return []
        }) { $0.p0 = $1 }
      },
      .ours: { n, w in
        writeLoop(n, w, Ours4.init, prepare: { m in
          for _ in 0..<100 { withTracking { consume(m.p1) } onChange: { fire() } }
          return []
        }) { $0.p0 = $1 }
      },
    ]))

  // Track + mutate + fire

  static let cycle1 = Operation(
    "cycle.1", "track 1 property, write it, callback runs",
    iterations: 200_000, quick: 50,
    .time([
      .apple: { n, w in appleTrackingCycle(n, w, Apple4.init, read: { $0.p0 }, write: { $0.p0 &+= 1 }) },
      .ours: { n, w in
        cycleLoop(n, w, Ours4.init) { m in
          consume(withTracking { m.p0 } onChange: { fire() })
          m.p0 &+= 1
        }
      },
      .combine: { n, w in
        cycleLoop(n, w, Combine4.init) { m in
          let subscription = m.objectWillChange.sink { fire() }
          m.p0 &+= 1
          subscription.cancel()
        }
      },
    ]))

  static let cycle4 = Operation(
    "cycle.4r1w", "track 4 properties, write 1 of them, callback runs",
    iterations: 200_000, quick: 50,
    .time([
      .apple: { n, w in
        cycleLoop(n, w, Apple4.init) { m in
          consume(withObservationTracking { m.sum4 } onChange: { fire() })
          m.p2 &+= 1
        }
      },
      .ours: { n, w in
        cycleLoop(n, w, Ours4.init) { m in
          consume(withTracking { m.sum4 } onChange: { fire() })
          m.p2 &+= 1
        }
      },
      .combine: { n, w in
        cycleLoop(n, w, Combine4.init) { m in
          consume(m.sum4)
          let subscription = m.objectWillChange.sink { fire() }
          m.p2 &+= 1
          subscription.cancel()
        }
      },
    ]))

  // Relay to Apple's registrar switched on (ours only; compared with the base row)

  static let relayed: [Operation] = [untrackedRead, trackedRead1, write0, write1, cycle1].map { base in
    guard case .time(let workloads) = base.measurement, let ours = workloads[.ours] else {
      preconditionFailure("relay rows derive from timed rows with an `ours` workload")
    }
    return Operation(
      base.name + ".relay", base.summary + ", relaysToAppleObservation = true",
      iterations: base.iterations, quick: base.quickIterations, baseline: base.name,
      .time([.ours: relaying(ours)]))
  }

  /// What a SwiftUI view does with a model: Apple's tracking (the view's body) around
  /// a read. Apple: its own `@Observable` object; ours: a `@Trackable` object,
  /// relaying to Apple (as where SwiftUI exists), so that Apple's tracking sees it.
  /// Each object was read once before, untimed: ours makes its relay to Apple then, as
  /// Apple's object made its registrar in its initializer (``viewFirstRead`` times both).
  static let viewRead = Operation(
    "view.read.relay", "Apple's tracking scope (a view body) reading 1 property of a model read before; ours relays to Apple",
    iterations: 5_000, quick: 20,
    .time([
      .apple: { n, w in scopeLoop(n, w, { readOnce(Apple4()) { $0.p0 } }) { appleTrackedRead($0) { $0.p0 } } },
      .ours: relaying { n, w in scopeLoop(n, w, { readOnce(Ours4()) { $0.p0 } }) { appleTrackedRead($0) { $0.p0 } } },
    ]))

  /// A model made and shown at once: its creation and the first read by Apple's
  /// tracking, both timed (ours makes its relay to Apple at that read).
  static let viewFirstRead = Operation(
    "view.first-read.relay", "make a model, then Apple's tracking scope reads 1 property; ours relays to Apple",
    iterations: 5_000, quick: 20,
    .time([
      .apple: { n, w in scopeLoop(n, w, { () }) { _ in appleTrackedRead(Apple4()) { $0.p0 } } },
      .ours: relaying { n, w in scopeLoop(n, w, { () }) { _ in appleTrackedRead(Ours4()) { $0.p0 } } },
    ]))

  /// ``viewRead``, then a write of the property, which fires Apple's `onChange`.
  static let viewCycle = Operation(
    "view.cycle.relay", "Apple's tracking scope reading 1 property, write it, onChange runs; ours relays to Apple",
    iterations: 200_000, quick: 50,
    .time([
      .apple: { n, w in appleTrackingCycle(n, w, Apple4.init, read: { $0.p0 }, write: { $0.p0 &+= 1 }) },
      .ours: relaying { n, w in appleTrackingCycle(n, w, Ours4.init, read: { $0.p0 }, write: { $0.p0 &+= 1 }) },
    ]))

  // Memory

  static let bytesPerObject = Operation(
    "memory.object", "heap bytes per object with 4 properties (fresh)",
    iterations: 20_000, quick: 100,
    .value(
      unit: "B",
      [
        .plain: { n in heapGrowth(n) { opaque(Plain4()) } },
        .apple: { n in heapGrowth(n) { opaque(Apple4()) } },
        .ours: { n in heapGrowth(n) { opaque(Ours4()) } },
        .combine: { n in heapGrowth(n) { opaque(Combine4()) } },
      ]))

  static let bytesPerObjectUsed = Operation(
    "memory.object.used", "heap bytes per object with 4 properties after one track+fire cycle",
    iterations: 20_000, quick: 100,
    .value(
      unit: "B",
      [
        .apple: { n in
          heapGrowth(n) { () -> Apple4 in
            let m = opaque(Apple4())
            withObservationTracking { consume(m.p0) } onChange: { fire() }
            m.p0 = 1
            return m
          }
        },
        .ours: { n in
          heapGrowth(n) { () -> Ours4 in
            let m = opaque(Ours4())
            withTracking { consume(m.p0) } onChange: { fire() }
            m.p0 = 1
            return m
          }
        },
        .combine: { n in
          heapGrowth(n) { () -> Combine4 in
            let m = opaque(Combine4())
            m.objectWillChange.sink { fire() }.cancel()
            m.p0 = 1
            return m
          }
        },
      ]))

  static let pendingScopesBytes = Operation(
    "memory.pending-scopes", "heap growth per one-shot scope left pending on a property that never changes (10^5 scopes)",
    iterations: 100_000, quick: 1_000,
    .value(
      unit: "B",
      [
        .apple: { n in
          heapGrowth(n, of: opaque(Apple4())) { m in
            withObservationTracking { consume(m.p0) } onChange: { fire() }
          }
        },
        .ours: { n in
          heapGrowth(n, of: opaque(Ours4())) { m in withTracking { consume(m.p0) } onChange: { fire() } }
        },
        .combine: { n in
          // The nearest equivalent: subscriptions kept alive (a `sink` is continuous).
          var keep: [AnyCancellable] = []
          keep.reserveCapacity(n)
          return heapGrowth(n, of: opaque(Combine4())) { m in keep.append(m.objectWillChange.sink { fire() }) }
        },
      ]))

  /// What a continuous observation of an object costs in memory, per object: the
  /// object, the observation (its token, node and closure) and what links them (ours:
  /// the links to the properties' sources; Apple: the pending tracking a re-arming
  /// observation holds between runs; OpenCombine: a kept `objectWillChange` sink).
  static let observedBytes = Operation(
    "memory.observed", "heap bytes per object with 4 properties, 2 of them read by an observation of its own (object + observation)",
    iterations: 10_000, quick: 100,
    .value(
      unit: "B",
      [
        .plain: { n in heapGrowth(n) { opaque(Plain4()) } },
        .apple: { n in
          heapGrowth(n) { () -> Apple4 in
            let m = opaque(Apple4())
            withObservationTracking { consume(m.p0 &+ m.p1) } onChange: { fire() }
            return m
          }
        },
        .ours: { n in
          heapGrowth(n) { () -> (Ours4, TrackingToken) in
            nonisolated(unsafe) let m = opaque(Ours4())
            return (m, observe { consume(m.p0 &+ m.p1) })
          }
        },
        .combine: { n in
          heapGrowth(n) { () -> (Combine4, AnyCancellable) in
            let m = opaque(Combine4())
            return (m, m.objectWillChange.sink { fire() })
          }
        },
      ]))

  static let pendingScopesTime = Operation(
    "pending-scopes.install", "install one more scope on a property that already has up to 10^5 pending",
    iterations: 100_000, quick: 1_000,
    .time([
      .apple: { n, w in
        let m = opaque(Apple4())
        w.start()
        for _ in 0..<n { withObservationTracking { consume(m.p0) } onChange: { fire() } }
        w.stop()
      },
      .ours: { n, w in
        let m = opaque(Ours4())
        w.start()
        for _ in 0..<n { withTracking { consume(m.p0) } onChange: { fire() } }
        w.stop()
      },
    ]))

  // Render graph

  static let graphFrame = Operation(
    "graph.frame", "100 views over 10 properties: change 1 property, re-evaluate the invalidated views",
    iterations: 10_000, quick: 10,
    .time([
      .apple: { n, w in _ = graphApple(n, w) },
      .ours: { n, w in _ = graphOurs(n, w) },
      .combine: { n, w in _ = graphCombine(n, w) },
    ]))

  static let graphEvaluations = Operation(
    "graph.re-evaluations", "views re-evaluated per property change (of 100)",
    iterations: 1_000, quick: 10,
    .value(
      unit: "views",
      [
        .apple: { n in Double(graphApple(n, nil)) / Double(n) },
        .ours: { n in Double(graphOurs(n, nil)) / Double(n) },
        .combine: { n in Double(graphCombine(n, nil)) / Double(n) },
      ]))


  /// Every row, in table order.
  public static let all: [Operation] =
    [
      untrackedRead, trackedRead1, trackedRead10, trackedRead100,
    ] + scaleInObjects + [
      write0, write1, write100, write100Other,
      cycle1, cycle4,
    ] + relayed + [viewRead, viewFirstRead, viewCycle]
    + [
      bytesPerObject, bytesPerObjectUsed, observedBytes, pendingScopesBytes, pendingScopesTime,
      graphFrame, graphEvaluations,
    ] + derivedGraphs + continuous + structState + collections
}
