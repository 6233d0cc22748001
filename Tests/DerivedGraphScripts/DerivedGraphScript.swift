import Tracking

/// A random graph of derived values over tracked properties, with effects, and the
/// writes, transactions, reads and cancellations to run on it (see
/// `DerivedGraphPropertyTests` in `TrackingTests`). Plain values: the same script runs
/// against the runtime and is evaluated by hand, here, to say what every read must
/// return.

/// What a computation or an effect reads: a signal (a tracked property) or a
/// computation made before the reader.
public enum GraphInput: Hashable, Sendable, CustomStringConvertible {
  case signal(Int)
  case computation(Int)

  public var description: String {
    switch self {
    case .signal(let index): "s\(index)"
    case .computation(let index): "c\(index)"
    }
  }
}

/// One read of a closure: `input`; or, with `onlyIfOdd`, first that input, and `input`
/// only when its value is odd (a dependency that comes and goes between runs).
public struct GraphRead: Sendable, CustomStringConvertible {
  public let input: GraphInput
  public let onlyIfOdd: GraphInput?

  public init(input: GraphInput, onlyIfOdd: GraphInput?) {
    self.input = input
    self.onlyIfOdd = onlyIfOdd
  }

  public var description: String { onlyIfOdd.map { "\($0)?\(input)" } ?? "\(input)" }
}

/// A computation: the sum of what it reads plus its own number, modulo `modulus` (small
/// moduli make many recomputations end with an equal value, which must stop there),
/// under one of `Derived`'s rules for what counts as a change.
public struct GraphComputation: Sendable {
  public enum Rule: Sendable {
    /// `==` (`Derived(_:)` of an `Equatable` value).
    case equatable
    /// Values of the same parity are equal (`Derived(isEqual:_:)`): a recomputation
    /// that yields one keeps the value cached.
    case sameParity
    /// Every recomputation is a change (`Derived(notifyingOnlyWhenChanged: false)`).
    case alwaysDiffering
  }

  public let reads: [GraphRead]
  public let modulus: Int
  public let rule: Rule

  public init(reads: [GraphRead], modulus: Int, rule: Rule) {
    self.reads = reads
    self.modulus = modulus
    self.rule = rule
  }

  /// Whether a recomputation that yields `new` changes the value `old`.
  public func differs(_ old: Int, _ new: Int) -> Bool {
    switch rule {
    case .equatable: old != new
    case .sameParity: old % 2 != new % 2
    case .alwaysDiffering: true
    }
  }
}

/// An effect: what its closure reads, whether it is a closure that takes the change's
/// event (`withContinuousTracking`) rather than a plain one (`observe`), and what it
/// writes, if anything.
public struct GraphEffect: Sendable {
  public let reads: [GraphRead]
  public let takesEvents: Bool
  /// A write the closure makes, before its read number `before` (after them all when
  /// that is `reads.count`). Each writing effect writes a signal of its own, always
  /// the same value: so the runs that effects' writes cause one another end.
  public let write: GraphEffectWrite?

  public init(reads: [GraphRead], takesEvents: Bool, write: GraphEffectWrite? = nil) {
    self.reads = reads
    self.takesEvents = takesEvents
    self.write = write
  }
}

/// An effect's write of `value` to `signal`, before its read number `before`.
public struct GraphEffectWrite: Sendable {
  public let signal: Int
  public let value: Int
  public let before: Int

  public init(signal: Int, value: Int, before: Int) {
    self.signal = signal
    self.value = value
    self.before = before
  }
}

/// A step inside a transaction.
public enum GraphStep: Sendable, CustomStringConvertible {
  case write(signal: Int, value: Int)
  case read(computation: Int)

  public var description: String {
    switch self {
    case .write(let signal, let value): "s\(signal)=\(value)"
    case .read(let computation): "read c\(computation)"
    }
  }
}

/// A top-level operation. A write outside a transaction runs the effects it reaches
/// before it returns; a transaction runs them once, at its end.
public enum GraphOp: Sendable, CustomStringConvertible {
  case write(signal: Int, value: Int)
  case transaction([GraphStep])
  case read(computation: Int)
  case cancel(effect: Int)
  /// Starts a cancelled effect again, as a new observation (its first run at once);
  /// nothing if the effect is live.
  case restart(effect: Int)
  /// A one-shot did-set tracking (`withTracking(options: .didSet, …)`) of a
  /// computation's value.
  case track(computation: Int)

  public var description: String {
    switch self {
    case .write(let signal, let value): "s\(signal)=\(value)"
    case .transaction(let steps): "transaction { \(steps.map(\.description).joined(separator: "; ")) }"
    case .read(let computation): "read c\(computation)"
    case .cancel(let effect): "cancel e\(effect)"
    case .restart(let effect): "restart e\(effect)"
    case .track(let computation): "track c\(computation) once"
    }
  }
}

/// A graph, its effects, and the operations of one thread.
public struct DerivedGraphScript: Sendable, CustomStringConvertible {
  public let signalCount: Int
  /// Computation `i` reads only signals and computations numbered below `i`.
  public let computations: [GraphComputation]
  public let effects: [GraphEffect]
  public let ops: [GraphOp]

  public init(signalCount: Int, computations: [GraphComputation], effects: [GraphEffect], ops: [GraphOp]) {
    self.signalCount = signalCount
    self.computations = computations
    self.effects = effects
    self.ops = ops
  }

  public var description: String {
    var lines = ["signals: \(signalCount)"]
    for (index, computation) in computations.enumerated() {
      let sum = (computation.reads.map(\.description) + ["\(index)"]).joined(separator: " + ")
      let rule = computation.rule == .equatable ? "" : " (\(computation.rule))"
      lines.append("c\(index) = (\(sum)) % \(computation.modulus)\(rule)")
    }
    for (index, effect) in effects.enumerated() {
      let kind = effect.takesEvents ? " (takes events)" : ""
      var steps = effect.reads.map { "read \($0)" }
      if let write = effect.write { steps.insert("s\(write.signal)=\(write.value)", at: write.before) }
      lines.append("e\(index)\(kind): \(steps.joined(separator: ", "))")
    }
    lines += ops.map(\.description)
    return lines.joined(separator: "\n")
  }

  /// The same graph and effects, with other operations.
  public func with(ops: [GraphOp]) -> DerivedGraphScript {
    DerivedGraphScript(signalCount: signalCount, computations: computations, effects: effects, ops: ops)
  }

  /// Whether an effect writes a signal.
  public var effectsWrite: Bool { effects.contains { $0.write != nil } }

  // MARK: Evaluation by hand

  /// Every computation's value for these signal values, in order. `cached`: each
  /// computation's cached value, if any: a computation whose rule finds its new value
  /// equal to the cached one keeps the cached one.
  public func values(signals: [Int], cached: [Int?]) -> [Int] {
    var values: [Int] = []
    for index in computations.indices {
      let new = compute(index) { value(of: $0, signals: signals, computed: values) }
      if let old = cached[index], !computations[index].differs(old, new) {
        values.append(old)
      } else {
        values.append(new)
      }
    }
    return values
  }

  /// What computation `index`'s closure returns when `read` gives its inputs' values.
  public func compute(_ index: Int, reading read: (GraphInput) -> Int) -> Int {
    let computation = computations[index]
    var sum = index
    for input in computation.reads {
      if let condition = input.onlyIfOdd, read(condition) % 2 == 0 { continue }
      sum += read(input.input)
    }
    return sum % computation.modulus
  }

  /// The value of `input` when the signals hold `signals` and the computations `computed`.
  public func value(of input: GraphInput, signals: [Int], computed: [Int]) -> Int {
    switch input {
    case .signal(let index): signals[index]
    case .computation(let index): computed[index]
    }
  }

  /// The signals that computation `index` may read, through any of its reads and
  /// theirs.
  public func reachableSignals(of index: Int) -> Set<Int> {
    var signals: Set<Int> = []
    for read in computations[index].reads {
      for input in [read.input] + (read.onlyIfOdd.map { [$0] } ?? []) {
        switch input {
        case .signal(let signal): signals.insert(signal)
        case .computation(let computation): signals.formUnion(reachableSignals(of: computation))
        }
      }
    }
    return signals
  }
}

extension GraphComputation {
  /// A `Derived` of `compute`, made by the initializer of this computation's rule.
  public func derived(_ compute: @escaping () -> Int) -> Derived<Int> {
    switch rule {
    case .equatable: Derived(compute)
    case .sameParity: Derived(isEqual: { $0 % 2 == $1 % 2 }, compute)
    case .alwaysDiffering: Derived(notifyingOnlyWhenChanged: false, compute)
    }
  }
}
