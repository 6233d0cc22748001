import Foundation
import Tracking

/// A script's graph made with the runtime, for the worlds that use it from several
/// threads (`ThreadedDerivedGraphWorld`, `ScheduledDerivedGraphWorld` and
/// `RenderLoopGraphWorld` in `TrackingTests`, `PublisherGraphWorld` in
/// `TrackingCombineTests`): its signals and derived values, the operations that are not
/// an effect's, and the check of every value against its inputs at the end.
///
/// Thread-safe: the signals are `LockedCell`s (a tracked property's storage is no more
/// thread-safe than a plain property's, as with Apple's `@Observable`), and the derived
/// values are made in the initializer and never replaced.
public final class LiveDerivedGraph: @unchecked Sendable {
  public let script: DerivedGraphScript
  public let signals: [LockedCell]
  // Internal, for `GraphHooks`.
  private(set) var derived: [Derived<Int>] = []

  /// Makes `script`'s signals (all 0) and derived values; no effect.
  public init(_ script: DerivedGraphScript) {
    self.script = script
    signals = (0..<script.signalCount).map { _ in LockedCell() }
    derived = script.computations.indices.map { index in
      script.computations[index].derived { [unowned self] in self.compute(index) }
    }
  }

  /// The value of `input`, read as an effect or a computation reads it (tracked).
  public func value(of input: GraphInput) -> Int {
    switch input {
    case .signal(let index): signals[index].value
    case .computation(let index): derived[index].value
    }
  }

  /// What computation `index`'s closure returns for its inputs' current values.
  public func compute(_ index: Int) -> Int {
    script.compute(index) { value(of: $0) }
  }

  /// Performs `op` in round `round` (the values written vary with it). A cancellation
  /// or a restart concerns the world's effects: `cancel` or `restart` gets the effect's
  /// number (by default, nothing happens).
  public func perform(
    _ op: GraphOp, round: Int, cancel: (_ effect: Int) -> Void = { _ in }, restart: (_ effect: Int) -> Void = { _ in }
  ) {
    switch op {
    case .write(let signal, let value):
      signals[signal].value = (value + round) % 3
    case .transaction(let steps):
      withTransaction {
        for step in steps {
          switch step {
          case .write(let signal, let value): signals[signal].value = (value + round) % 3
          case .read(let computation): _ = derived[computation].value
          }
        }
      }
    case .read(let computation):
      _ = derived[computation].value
    case .track(let computation):
      withTracking(options: .didSet, { _ = derived[computation].value }) { [unowned self] _ in
        _ = derived[computation].value
      }
    case .cancel(let effect):
      cancel(effect)
    case .restart(let effect):
      restart(effect)
    }
  }

  /// Runs each of `threads` (its operations, `rounds` times, through `perform`) on a
  /// thread of its own, all at once, and returns when they are all done.
  public static func onThreads(
    _ threads: [[GraphOp]], rounds: Int, _ perform: @escaping @Sendable (GraphOp, _ round: Int) -> Void
  ) async {
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      let group = DispatchGroup()
      for ops in threads {
        group.enter()
        Thread.detachNewThread {
          for round in 0..<rounds {
            for op in ops { perform(op, round) }
          }
          group.leave()
        }
      }
      group.notify(queue: .global()) { done.resume() }
    }
  }

  /// Effect `index`'s reads, in order, with the values they return (its write, if it
  /// has one, left out).
  public func readsOfEffect(_ index: Int) -> [(GraphInput, Int)] {
    var reads: [(GraphInput, Int)] = []
    for read in script.effects[index].reads {
      if let condition = read.onlyIfOdd {
        let value = value(of: condition)
        reads.append((condition, value))
        if value % 2 == 0 { continue }
      }
      reads.append((read.input, value(of: read.input)))
    }
    return reads
  }

  /// Each value against its own inputs' values at the end: a computation whose rule
  /// kept an equal value keeps one equal by its rule.
  public func computationFailures() -> [String] {
    var failures: [String] = []
    for (index, computation) in script.computations.enumerated() {
      let value = derived[index].value
      let new = compute(index)
      if computation.rule == .sameParity ? computation.differs(value, new) : value != new {
        failures.append("c\(index) = \(value) at the end, though its inputs give \(new)")
      }
    }
    return failures
  }

  /// What `reads` (an effect's latest run) read that is not the value at the end.
  public func staleReads(_ reads: [(GraphInput, Int)]) -> [String] {
    reads.compactMap { input, seen in
      let now = value(of: input)
      return seen == now ? nil : "\(input) = \(seen), and it is \(now) at the end"
    }
  }
}
