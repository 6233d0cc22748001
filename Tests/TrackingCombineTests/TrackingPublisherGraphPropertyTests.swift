#if canImport(Combine) || OpenCombine
import DerivedGraphScripts
import PropertyBased
import Testing
import Tracking
import TrackingCombine

#if canImport(Combine)
  import Combine
#else
  import OpenCombine
#endif

/// Random derived graphs whose effects are Combine subscribers of ``TrackingPublisher``,
/// used from two or three threads at once: each thread repeats its own random writes,
/// transactions, reads, one-shot trackings, cancellations and restarts (a subscription
/// made again makes its first run while other threads write). The publishers emit on
/// whatever thread made the change, so several threads offer values to one subscriber.
///
/// When the threads are done:
/// - every computation's value agrees with its inputs' values;
/// - every live `.didSet` subscriber's last value (or its first run's, if no value came)
///   is what its closure returns at the end: no change lost, and no older value
///   delivered after a newer one;
/// - every live `.willSet` subscriber still follows what it reads now: a write of a
///   signal it reads makes it emit, and the value it gets is the one about to be
///   replaced.
///
/// The script's effects that write a signal of their own do not write here (a
/// publisher's closure only reads). ThreadSanitizer runs it too.
@Suite("Properties: random derived graphs published to Combine across threads", .timeLimit(.minutes(2)))
struct TrackingPublisherGraphPropertyTests {
  @Test(.shrinking(false)) func everySubscriberEndsWithTheLatestValue() async {
    let scripts = DerivedGraphGenerator.threadedScripts()
    await propertyCheck(count: ThreadedDerivedGraphScript.scriptCount, input: scripts) { script in
      let world = PublisherGraphWorld(script.graph)
      let failures = await world.run(script.threads, rounds: ThreadedDerivedGraphScript.rounds)
      #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))\nscript:\n\(script)")
    }
  }
}

/// A graph whose effects are publishers' subscribers, run from several threads, and its
/// end checked against the values there. Thread-safe: the subscribers are in their
/// slots (see ``EffectSlots``), the will-set counts under their own lock, and the rest is
/// set before the threads start.
final class PublisherGraphWorld: @unchecked Sendable {
  /// What a publisher's closure returns: its reads, in order, with their values.
  typealias Reads = [(GraphInput, Int)]

  private let graph: DerivedGraphScript
  private let live: LiveDerivedGraph
  /// Each live subscription, and the latest value its subscriber got (a `.didSet`
  /// subscriber's first run counts as one).
  private let subscribers: EffectSlots<AnyCancellable, Reads>
  /// How many values each `.willSet` subscriber got.
  private let willSetCounts: Locked<[Int]>

  init(_ graph: DerivedGraphScript) {
    self.graph = graph
    live = LiveDerivedGraph(graph)
    subscribers = EffectSlots(count: graph.effects.count, noRun: [])
    willSetCounts = Locked(Array(repeating: 0, count: graph.effects.count))
  }

  /// Effects that take events and have an odd number are `.willSet` subscribers (a
  /// quarter of them); the others `.didSet` ones.
  private func timing(of index: Int) -> TrackedChangeTiming {
    graph.effects[index].takesEvents && index % 2 == 1 ? .willSet : .didSet
  }

  /// Runs each thread's operations `rounds` times, all threads at once, and returns
  /// what does not agree with the values at the end. Once every subscription is
  /// cancelled and the values left unobserved have retired, the graph's
  /// observed/unobserved hooks must say nothing unexplained is observed (see
  /// ``GraphHooks``).
  func run(_ threads: [[GraphOp]], rounds: Int) async -> [String] {
    let hooks = GraphHooks(on: live)
    defer { hooks.cancel() }
    for index in graph.effects.indices { start(index) }
    await LiveDerivedGraph.onThreads(threads, rounds: rounds) { op, round in self.perform(op, round: round) }
    var failures = live.computationFailures()
    let (cancellables, latest, _) = subscribers.snapshot()
    for index in graph.effects.indices where cancellables[index] != nil && timing(of: index) == .didSet {
      failures += live.staleReads(latest[index]).map { "e\(index)'s subscriber got \($0) last" }
    }
    // After those checks: a probe writes a signal, which changes the values.
    for index in graph.effects.indices where cancellables[index] != nil && timing(of: index) == .willSet {
      failures += probe(willSetSubscriber: index)
    }
    for cancellable in cancellables { cancellable?.cancel() }
    return failures + hooks.failuresOnceUnobserved(operations: threads.flatMap { $0 }) + hooks.failuresOfOrder
  }

  private func perform(_ op: GraphOp, round: Int) {
    live.perform(op, round: round, cancel: { subscribers.take($0)?.cancel() }, restart: start)
  }

  /// Subscribes effect `index` unless it is live or being subscribed: a new
  /// subscription, whose first run is now, on this thread, while the other threads
  /// write.
  private func start(_ index: Int) {
    guard let generation = subscribers.beginStart(index) else { return }
    let timing = timing(of: index)
    // The first call of the closure is the subscription's first run, which emits
    // nothing: a `.didSet` subscriber's latest value until another one comes.
    let firstCall = Locked(true)
    let publisher = TrackingPublisher(timing: timing) { [unowned self] () -> Reads in
      let isFirst = firstCall.withLock { first in
        defer { first = false }
        return first
      }
      let reads = live.readsOfEffect(index)
      if isFirst, timing == .didSet { subscribers.record(reads, of: index, generation: generation) }
      return reads
    }
    let cancellable = publisher.sink { [unowned self] reads in
      subscribers.record(reads, of: index, generation: generation)
      if timing == .willSet { willSetCounts.withLock { $0[index] += 1 } }
    }
    subscribers.keep(cancellable, for: index)
  }

  /// Writes a signal that `.willSet` subscriber `index` reads directly now, once the
  /// threads are done: the subscriber must get a value, the closure's value before the
  /// write. A subscriber that reads no signal directly is not probed.
  private func probe(willSetSubscriber index: Int) -> [String] {
    let before = live.readsOfEffect(index)
    guard
      let signal = before.lazy.compactMap({ read -> Int? in
        if case .signal(let signal) = read.0 { signal } else { nil }
      }).first
    else { return [] }
    let count = willSetCounts.withLock { $0[index] }
    let cell = live.signals[signal]
    cell.value = (cell.untrackedValue + 1) % 3
    let after = willSetCounts.withLock { $0[index] }
    guard after > count else { return ["e\(index)'s will-set subscriber got nothing when s\(signal) changed"] }
    let got = subscribers.snapshot().runs[index]
    guard !got.elementsEqual(before, by: { $0.0 == $1.0 && $0.1 == $1.1 }) else { return [] }
    return ["e\(index)'s will-set subscriber got \(got) when s\(signal) changed, not \(before)"]
  }
}
#endif
