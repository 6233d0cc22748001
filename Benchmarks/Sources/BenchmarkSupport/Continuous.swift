import Dispatch
import Observation
import OpenCombine
import Tracking

// Continuous observation: the transactional sequence (ours `TrackedValues`, Apple's
// `Observations`) and callback observation (ours `observe`, Apple's re-arming
// `withObservationTracking`, OpenCombine's `$property.sink`).

// MARK: - Running asynchronous workloads from the synchronous drivers

/// The actor both ends of a sequence benchmark run on: the producer mutates on it and
/// the sequence's closure is isolated to it, as with a model on the main actor.
@globalActor public actor BenchmarkActor {
  public static let shared = BenchmarkActor()
}

/// Carries a value the compiler cannot prove sendable into the benchmark task. The
/// caller blocks until the task ends, so nothing is used from two threads at once.
struct Handoff<T>: @unchecked Sendable {
  let value: T
}

/// Runs `body` in a detached task and blocks the calling (driver) thread until it ends.
func runBlocking(_ body: @escaping @Sendable () async -> Void) {
  let done = DispatchSemaphore(value: 0)
  Task.detached {
    await body()
    done.signal()
  }
  done.wait()
}

/// Hands control from the sequence's consumer back to the producer: the producer
/// suspends in `untilDelivered(_:)` until the consumer has received that value.
@BenchmarkActor final class Delivery {
  private var latest = -1
  private var target = Int.max
  private var waiter: UnsafeContinuation<Void, Never>?
  /// Values the consumer received, including the initial one.
  private(set) var received = 0

  func deliver(_ value: Int) {
    received += 1
    latest = value
    if value >= target, let waiter {
      self.waiter = nil
      waiter.resume()
    }
  }

  func untilDelivered(_ value: Int) async {
    guard latest < value else { return }
    target = value
    await withUnsafeContinuation { waiter = $0 }
  }
}

// MARK: - Transactional sequence

/// The shape of a sequence benchmark. The consumer iterates `values` until it sees `n`;
/// the producer writes 1, 2, … n to p0 and suspends after each write: either with
/// `Task.yield()` (`handshake == false`: the consumer runs if it is ready, bursts may
/// coalesce) or until the consumer has received the value (`handshake == true`: one
/// value per write, so the time is a full write → deliver round trip).
/// Returns the values delivered in the timed part.
@BenchmarkActor
func sequenceRun<S: AsyncSequence<Int, Never>>(
  _ n: Int, _ watch: Stopwatch, handshake: Bool, _ write: @escaping @BenchmarkActor (Int) -> Void,
  _ values: @escaping @BenchmarkActor () -> S
) async -> Int {
  let delivery = Delivery()
  let consumer = Task { @BenchmarkActor in
    for await value in values() {
      delivery.deliver(value)
      if value == n { break }
    }
  }
  await delivery.untilDelivered(0)  // the initial value: not timed
  let initial = delivery.received
  watch.start()
  for i in 1...n {
    write(i)
    if handshake {
      await delivery.untilDelivered(i)
    } else {
      await Task.yield()
    }
  }
  await delivery.untilDelivered(n)
  watch.stop()
  await consumer.value
  return delivery.received - initial
}

/// Runs a sequence benchmark for one flavour; returns the values delivered.
@discardableResult
func sequenceWorkload(_ flavor: Flavor, _ n: Int, _ watch: Stopwatch, handshake: Bool) -> Int {
  let n = opaque(n)
  let box = Handoff(value: (watch, Counter()))
  runBlocking {
    let (watch, counter) = box.value
    switch flavor {
    case .ours:
      nonisolated(unsafe) let model = Ours4()
      counter.value = await sequenceRun(n, watch, handshake: handshake, { model.p0 = $0 }) {
        TrackedValues { model.p0 }
      }
    case .apple:
      nonisolated(unsafe) let model = Apple4()
      counter.value = await sequenceRun(n, watch, handshake: handshake, { model.p0 = $0 }) {
        Observations { model.p0 }
      }
    case .plain:
      let model = Handoff(value: HandOverModel())
      counter.value = await sequenceRun(n, watch, handshake: handshake, { model.value.p0 = $0 }) {
        HandOverValues(model: model.value)
      }
    case .combine:
      preconditionFailure("no transactional sequence for \(flavor)")
    }
  }
  let delivered = box.value.1.value
  precondition(delivered >= 1 && delivered <= n, "delivered \(delivered) values for \(n) writes")
  if handshake { precondition(delivered == n, "expected one value per write, got \(delivered) for \(n)") }
  return delivered
}

final class Counter: @unchecked Sendable {
  var value = 0
}

/// Best of `rounds` runs of a non-handshake sequence benchmark, as values per second
/// and values per write.
func sequenceThroughput(_ flavor: Flavor, _ n: Int, rounds: Int = 7) -> (perSecond: Double, perWrite: Double) {
  var best = (perSecond: 0.0, perWrite: 0.0)
  for _ in 0..<rounds {
    let clock = ContinuousClock()
    var started = clock.now
    var elapsed = Duration.zero
    let watch = Stopwatch(start: { started = clock.now }, stop: { elapsed = clock.now - started })
    let delivered = sequenceWorkload(flavor, n, watch, handshake: false)
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let perSecond = Double(delivered) / seconds
    if perSecond > best.perSecond { best = (perSecond, Double(delivered) / Double(n)) }
  }
  return best
}

/// The floor for a sequence of values: a property whose setter resumes the one
/// waiting consumer (or leaves a flag if it is busy). No tracking, no coalescing logic;
/// what is left is the cost of the two task switches per value that every
/// implementation pays. Used only from `BenchmarkActor`.
final class HandOverModel: @unchecked Sendable {
  var p0 = 0 {
    didSet {
      if let waiter {
        self.waiter = nil
        waiter.resume()
      } else {
        pending = true
      }
    }
  }
  var waiter: UnsafeContinuation<Void, Never>?
  var pending = false
}

struct HandOverValues: AsyncSequence, Sendable {
  let model: HandOverModel

  struct AsyncIterator: AsyncIteratorProtocol {
    let model: HandOverModel
    var started = false

    mutating func next(isolation actor: isolated (any Actor)?) async -> Int? {
      if started {
        if model.pending {
          model.pending = false
        } else {
          await withUnsafeContinuation(isolation: actor) { model.waiter = $0 }
        }
      }
      started = true
      return model.p0
    }

    mutating func next() async -> Int? { await next(isolation: nil) }
  }

  func makeAsyncIterator() -> AsyncIterator { AsyncIterator(model: model) }
}

// MARK: - Callback observation

/// Apple's module has no continuous callback; this is the usual way to get one: track
/// again from `onChange`. (It re-runs in `willSet`, before the new value is stored;
/// ours re-runs in `didSet`. The work per change is what is compared.)
final class AppleCallback: @unchecked Sendable {
  let model: Apple4
  var stopped = false

  init(_ model: Apple4) { self.model = model }

  func run() {
    guard !stopped else { return }
    withObservationTracking {
      consume(model.p0)
    } onChange: { [weak self] in
      fire()
      self?.run()
    }
  }
}

/// `n` writes of p0 on one object with a continuous callback on p0: every write re-runs
/// the callback once (which tracks again).
@inline(__always)
func callbackLoop<M>(
  _ n: Int, _ watch: Stopwatch, _ make: () -> M, subscribe: (M) -> AnyObject, _ write: (M, Int) -> Void
) {
  let n = opaque(n)
  let model = opaque(make())
  let subscription = subscribe(model)
  fires = 0
  watch.start()
  for i in 0..<n { write(model, i + 1) }
  watch.stop()
  precondition(fires == n, "expected one callback run per write, got \(fires) for \(n)")
  consume(subscription)
}

/// One workload for each flavour of the sequence rows: the hand-over floor, Apple's
/// `Observations`, ours.
func perSequenceFlavor<W>(_ make: (Flavor) -> W) -> [Flavor: W] {
  Dictionary(uniqueKeysWithValues: [Flavor.plain, .apple, .ours].map { ($0, make($0)) })
}

extension Operation {
  static let sequenceRoundTrip = Operation(
    "sequence.round-trip",
    "transactional sequence: write 1 property, producer suspends until the consumer has the value (TrackedValues / Observations)",
    iterations: 20_000, quick: 10,
    .time(
      perSequenceFlavor { flavor -> TimedWorkload in
        { n, w in sequenceWorkload(flavor, n, w, handshake: true) }
      }))

  static let sequenceThroughputRow = Operation(
    "sequence.values-per-second",
    "transactional sequence: values delivered per second while the producer writes and yields (Task.yield) between writes (higher is better)",
    iterations: 20_000, quick: 10,
    .value(
      unit: "values/s", perSequenceFlavor { flavor -> ValueWorkload in { n in sequenceThroughput(flavor, n).perSecond } }))

  static let sequenceCoalescing = Operation(
    "sequence.values-per-write",
    "transactional sequence: values delivered per write in the row above (1 = no write was coalesced)",
    iterations: 20_000, quick: 10,
    .value(
      unit: "values/write",
      perSequenceFlavor { flavor -> ValueWorkload in { n in sequenceThroughput(flavor, n, rounds: 1).perWrite } }))

  static let callbackRerun = Operation(
    "callback.rerun",
    "continuous callback on 1 property: write it, the callback re-runs and tracks again (ours observe; Apple re-arming withObservationTracking; OpenCombine $p0.sink)",
    iterations: 200_000, quick: 50,
    .time([
      .apple: { n, w in
        callbackLoop(n, w, Apple4.init) { model in
          let callback = AppleCallback(model)
          callback.run()
          return callback
        } _: { $0.p0 = $1 }
      },
      .ours: { n, w in
        callbackLoop(n, w, Ours4.init) { model in
          nonisolated(unsafe) let model = model
          return observe {
            consume(model.p0)
            fire()
          }
        } _: { $0.p0 = $1 }
      },
      .combine: { n, w in
        callbackLoop(n, w, Combine4.init) { model in
          // The initial value is delivered at subscription, before the count is reset.
          model.$p0.sink { value in
            consume(value)
            fire()
          }
        } _: { $0.p0 = $1 }
      },
    ]))

  static let continuous: [Operation] = [
    sequenceRoundTrip, sequenceThroughputRow, sequenceCoalescing, callbackRerun,
  ]
}
