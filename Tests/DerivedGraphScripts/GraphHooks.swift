import Foundation
import Tracking

/// Observed/unobserved hooks on every signal and derived value of a ``LiveDerivedGraph``
/// (`onObservation`), and the checks of what they say against the graph: while effects
/// are live, everything they read (and what the derived values among those read, and
/// so on) is observed; once every effect is cancelled and the values that lost their
/// last observer have retired, nothing is left observed that nothing can explain; and
/// each hook's calls alternate, starting with `observed`, whatever threads made them.
///
/// Thread-safe: the hooks' state is under one lock, and the hooks may be called on any
/// thread.
public final class GraphHooks: @unchecked Sendable {
  private let lock = NSLock()
  /// Whether each hook said its input is observed, by input.
  private var observed: [GraphInput: Bool] = [:]
  /// Calls that broke the alternation.
  private var outOfOrder: [String] = []
  private var tokens: [TrackingToken] = []
  private let live: LiveDerivedGraph

  /// Hooks every signal and derived value of `live`. Call it before the graph is
  /// observed: each hook starts out unobserved.
  public init(on live: LiveDerivedGraph) {
    self.live = live
    let inputs =
      (0..<live.script.signalCount).map(GraphInput.signal)
      + live.script.computations.indices.map(GraphInput.computation)
    for input in inputs {
      observed[input] = false
      let observedCall: @Sendable () -> Void = { [unowned self] in self.heard(input, observed: true) }
      let unobservedCall: @Sendable () -> Void = { [unowned self] in self.heard(input, observed: false) }
      let token: TrackingToken
      switch input {
      case .signal(let index):
        token = live.signals[index].onObservation(of: \.value, observed: observedCall, unobserved: unobservedCall)
      case .computation(let index):
        token = live.derived[index].onObservation(observed: observedCall, unobserved: unobservedCall)
      }
      tokens.append(token)
    }
  }

  private func heard(_ input: GraphInput, observed isObserved: Bool) {
    lock.withLock {
      if observed[input] == isObserved {
        outOfOrder.append("\(input)'s hooks said \(isObserved ? "observed" : "unobserved") twice in a row")
      }
      observed[input] = isObserved
    }
  }

  /// The inputs whose hooks say they are observed now.
  public var observedNow: Set<GraphInput> {
    lock.withLock { Set(observed.filter(\.value).keys) }
  }

  /// Hooks whose calls did not alternate.
  public var failuresOfOrder: [String] { lock.withLock { outOfOrder } }

  /// What the live effects' latest runs read (`reads`, by effect), and what the derived
  /// values among those read for the values they hold now, and so on: what must be
  /// observed. Call it once the values are current (after ``LiveDerivedGraph/computationFailures()``).
  public func failuresWhileObserved(reads: [[GraphInput]]) -> [String] {
    var needed: Set<GraphInput> = []
    var waiting = reads.flatMap { $0 }
    while let input = waiting.popLast() {
      guard needed.insert(input).inserted, case .computation(let index) = input else { continue }
      waiting += inputsRead(by: index)
    }
    let now = observedNow
    return needed.subtracting(now).sorted(by: { "\($0)" < "\($1)" }).map {
      "\($0) is read by a live effect (directly or through derived values), yet its hooks say it is unobserved"
    }
  }

  /// After every effect is cancelled: writes every signal (a change each time), enough
  /// times for the derived values that lost their last observer to retire one level
  /// after another, then returns what is still observed that no pending one-shot
  /// tracking explains: one that a `.track` among `operations` (every operation that
  /// ran) made and that has not fired, with what its derived value reads.
  public func failuresOnceUnobserved(operations: [GraphOp]) -> [String] {
    let rounds = live.script.computations.count + 2
    for _ in 0..<rounds {
      for cell in live.signals { cell.value = (cell.untrackedValue + 1) % 3 }
    }
    var explained: Set<GraphInput> = []
    var waiting = operations.compactMap { op -> GraphInput? in
      if case .track(let index) = op { .computation(index) } else { nil }
    }
    while let input = waiting.popLast() {
      guard explained.insert(input).inserted, case .computation(let index) = input else { continue }
      waiting += live.script.computations[index].reads.flatMap { [$0.input] + ($0.onlyIfOdd.map { [$0] } ?? []) }
    }
    return observedNow.subtracting(explained).sorted(by: { "\($0)" < "\($1)" }).map {
      "\($0) is still observed after every effect was cancelled and every signal written \(rounds) times"
    }
  }

  /// What derived value `index` reads for the values its inputs hold now.
  private func inputsRead(by index: Int) -> [GraphInput] {
    var inputs: [GraphInput] = []
    for read in live.script.computations[index].reads {
      if let condition = read.onlyIfOdd {
        inputs.append(condition)
        if live.value(of: condition) % 2 == 0 { continue }
      }
      inputs.append(read.input)
    }
    return inputs
  }

  /// Removes the hooks.
  public func cancel() {
    for token in lock.withLock({ tokens }) { token.cancel() }
  }
}
