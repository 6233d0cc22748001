import DerivedGraphScripts
import Tracking

/// Runs a ``DerivedGraphScript`` on the runtime — signals are tracked properties,
/// computations `Derived` values, effects `observe` closures (or, for those that take
/// events, immediate `withContinuousTracking(options: .didSet)` ones), transactions
/// `withTransaction` — and checks each step against its own account of the graph,
/// kept beside it in plain values. It records what breaks a rule in `failures`:
///
/// - **Values.** Every value read, by a computation's closure, an effect or the script
///   itself, is the value computed by hand from the signals as they are at that moment
///   (where a computation's rule finds its new value equal to the cached one, from the
///   cached one): no read ever sees a mix of old and new inputs.
/// - **Computations.** Between two writes, a computation's closure runs at most once;
///   it runs again only if a signal it can reach changed since its previous run; and
///   while it is linked to its inputs (observed, or not reached by a write since it
///   ran), only if something its previous run read moved on (the equality cut-off, at
///   every level).
/// - **Effects.** An effect never runs inside a transaction. Where no effect writes,
///   after each top-level operation it has run at most once, and exactly when an input its
///   previous run read has moved on: a signal written with a different value, or a
///   computation whose value changed (by its version: a value that changed and changed
///   back within a transaction counts, as in every push-pull engine), or would change
///   if brought up to date.
/// - **Effects that write.** An effect may write a signal of its own (see
///   ``GraphEffectWrite``). Its own write does not run it again, even through a
///   computation it read (the own-writes rule), nor does a write made by another
///   effect's run nested in its own; any other write that reaches what it read does
///   tell it. So an effect runs again only if a write reached it since its previous
///   run and something that run read has moved on (its own writes included: it runs
///   when told, and counts them then); and once the operation is over, no effect that
///   a write reached is left with something it read moved on (no change is lost).
///   With writing effects, an effect may run more than once per operation: at most
///   once more per effect write that changed a value.
/// - **One-shot trackings.** A did-set tracking of a computation fires once, outside
///   any transaction, at the end of the first operation after which the computation's
///   value has moved on from the one its `apply` read (the value announces its change
///   when the batch ends), and its callback reads the new value.
///
/// Single-threaded: `@unchecked Sendable` only lets the closures be handed to
/// `Derived`, `observe` and `withTracking`.
final class DerivedGraphWorld: @unchecked Sendable {
  let script: DerivedGraphScript
  /// The signals: the first `signalCount` of its properties.
  private let signals = ScriptCell()
  private var derived: [Derived<Int>] = []
  private var tokens: [TrackingToken?] = []

  // The account, by hand.
  private var signalValues: [Int]
  private var signalVersions: [Int]
  /// Each computation's value as the runtime caches it: what its closure last returned,
  /// unless its rule found that equal to the value cached before, which it keeps.
  private var cached: [Int?]
  /// Moves when a computation's closure returns a value that its rule finds different
  /// from `cached`.
  private var computationVersions: [Int]
  /// The signals' versions when each computation last ran.
  private var signalVersionsAtRun: [[Int]]
  /// What each computation's latest run read, with the version it saw.
  private var computationReads: [[(input: GraphInput, version: Int)]]
  /// The computations whose closure ran since the last write.
  private var ranSinceWrite: Set<Int> = []
  /// Whether each computation is linked to what its latest run read, so that it can
  /// tell whether one of them moved on. It is from its run on, until it retires: when a
  /// write reaches it while no effect observes it (the computations a run reads are
  /// observed once the run is over: its own write retires those it reads first), or
  /// when it is left stale with no observer (an effect's run read something else, or
  /// it was cancelled, or a computation that read it read something else). Retired,
  /// its next read computes it again.
  private var linked: [Bool]
  /// What each live effect's latest run read, with the version it saw.
  private var effectReads: [[(input: GraphInput, version: Int)]?]
  private var effectRunsInOp: [Int]
  /// Whether a write reached each effect (through what its latest run read) since
  /// that run, other than its own.
  private var toldSinceRun: [Bool]
  /// The effects whose runs are under way, the innermost last: a write made now is
  /// their own.
  private var running: [Int] = []
  /// The writes that effects made in the operation under way, and that changed a value.
  private var effectWritesInOp = 0
  /// The one-shot trackings not fired yet: their number, what they read, and its
  /// version then.
  private var trackings: [(number: Int, computation: Int, version: Int)] = []
  private var trackingsMade = 0
  private var firedInOp: [Int] = []
  private var inTransaction = false

  private(set) var failures: [String] = []
  /// How many times each effect ran, its first run included.
  private(set) var effectRuns: [Int]
  /// How many times each effect's observation ran since it started (or started again).
  private var runsSinceStart: [Int]
  /// The effect whose observation is being made: its first run comes before its token
  /// is kept.
  private var starting: Int?

  init(_ script: DerivedGraphScript) {
    self.script = script
    signalValues = Array(repeating: 0, count: script.signalCount)
    signalVersions = Array(repeating: 0, count: script.signalCount)
    cached = Array(repeating: nil, count: script.computations.count)
    computationVersions = Array(repeating: 0, count: script.computations.count)
    signalVersionsAtRun = Array(repeating: [], count: script.computations.count)
    computationReads = Array(repeating: [], count: script.computations.count)
    effectReads = Array(repeating: nil, count: script.effects.count)
    effectRunsInOp = Array(repeating: 0, count: script.effects.count)
    effectRuns = Array(repeating: 0, count: script.effects.count)
    runsSinceStart = effectRuns
    toldSinceRun = Array(repeating: false, count: script.effects.count)
    linked = Array(repeating: false, count: script.computations.count)
  }

  /// Builds the graph, starts the effects (each runs once), and runs the operations.
  func run() {
    for index in script.computations.indices {
      derived.append(script.computations[index].derived { [unowned self] in self.compute(index) })
    }
    tokens = Array(repeating: nil, count: script.effects.count)
    for index in script.effects.indices { start(index) }
    for (number, op) in script.ops.enumerated() {
      perform(op, number: number)
    }
    for token in tokens { token?.cancel() }
  }

  // MARK: Operations

  private func perform(_ op: GraphOp, number: Int) {
    let readsBefore = effectReads
    let trackingsBefore = trackings
    effectRunsInOp = Array(repeating: 0, count: script.effects.count)
    effectWritesInOp = 0
    firedInOp = []
    switch op {
    case .write(let signal, let value):
      write(signal, value)
    case .transaction(let steps):
      withTransaction {
        inTransaction = true
        for step in steps {
          switch step {
          case .write(let signal, let value): write(signal, value)
          case .read(let computation): readAtTopLevel(computation)
          }
        }
        inTransaction = false
      }
    case .read(let computation):
      readAtTopLevel(computation)
    case .cancel(let effect):
      // A shrunk script may name an effect it dropped.
      guard effect < tokens.count else { break }
      tokens[effect]?.cancel()
      tokens[effect] = nil
      effectReads[effect] = nil
      retireStaleAndUnobserved()
    case .restart(let effect):
      guard effect < tokens.count, tokens[effect] == nil else { break }
      start(effect)
    case .track(let computation):
      track(computation)
    }
    checkEffects(after: "op \(number) (\(op))", readsBefore: readsBefore)
    checkTrackings(after: "op \(number) (\(op))", before: trackingsBefore)
  }

  private func track(_ computation: Int) {
    let number = trackingsMade
    trackingsMade += 1
    withTracking(options: .didSet, { readAtTopLevel(computation) }) { [unowned self] event in
      self.trackingFired(number, computation: computation, kind: event.kind)
    }
    trackings.append((number, computation, computationVersions[computation]))
  }

  /// `writer`: the effect whose run writes, if any.
  private func write(_ signal: Int, _ value: Int, by writer: Int? = nil) {
    ranSinceWrite.removeAll()
    // An equal value is not a change (the property's `==`): nothing moves.
    if value != signalValues[signal] {
      let observed = observedComputations()
      for index in script.computations.indices where linked[index] && !observed.contains(index) {
        if computationReaches(index, signal) { linked[index] = false }
      }
      signalVersions[signal] += 1
      if writer != nil { effectWritesInOp += 1 }
      // The write tells the effects whose latest run reached the signal, but not those
      // whose runs are under way: it is their own.
      for effect in script.effects.indices where !running.contains(effect) && reaches(effect, signal) {
        toldSinceRun[effect] = true
      }
    }
    // Updated first: a write outside a transaction runs the effects before it returns.
    signalValues[signal] = value
    signals.set(value, at: signal)
  }

  private func readAtTopLevel(_ computation: Int) {
    let expected = script.values(signals: signalValues, cached: cached)[computation]
    let value = derived[computation].value
    if value != expected { failures.append("the script read c\(computation) = \(value), expected \(expected)") }
  }

  // MARK: Closures

  private func compute(_ index: Int) -> Int {
    if ranSinceWrite.contains(index) { failures.append("c\(index) ran twice with no write between") }
    ranSinceWrite.insert(index)
    if cached[index] != nil {
      let moved = script.reachableSignals(of: index).contains { signalVersions[$0] != signalVersionsAtRun[index][$0] }
      if !moved { failures.append("c\(index) ran again though no signal it can reach changed") }
      // Linked to its inputs, it runs only if one of them moved on (the pull brought the
      // computations among them up to date first). Retired, it runs at its next read.
      let readMoved = computationReads[index].contains { version(of: $0.input) != $0.version }
      if linked[index], !readMoved {
        failures.append("c\(index) ran again though nothing it read moved on")
      }
    }
    signalVersionsAtRun[index] = signalVersions
    var reads: [(input: GraphInput, version: Int)] = []
    let value = script.compute(index) { input in
      let value = self.read(input, by: "c\(index)")
      reads.append((input, version(of: input)))
      return value
    }
    computationReads[index] = reads
    linked[index] = true
    // A computation this run stopped reading may be left with no observer.
    retireStaleAndUnobserved()
    if cached[index].map({ script.computations[index].differs($0, value) }) ?? true {
      computationVersions[index] += 1
      cached[index] = value
    }
    return value
  }

  /// Starts effect `index` (again, after a cancellation): a new observation, whose
  /// first run is now.
  private func start(_ index: Int) {
    runsSinceStart[index] = 0
    toldSinceRun[index] = false
    starting = index
    defer { starting = nil }
    tokens[index] =
      script.effects[index].takesEvents
      ? withContinuousTracking(options: .didSet, delivery: .immediate, firstRun: .immediate) { [unowned self] event in
        self.runEffect(index, kind: event.kind)
      }
      : observe { [unowned self] in self.runEffect(index, kind: nil) }
    if effectReads[index] == nil { failures.append("e\(index) did not run when it started") }
  }

  /// `kind`: the event's, for an effect that takes events: `initial` for its first run,
  /// `didSet` after.
  private func runEffect(_ index: Int, kind: TrackingEvent.Kind?) {
    if inTransaction { failures.append("e\(index) ran inside a transaction") }
    if let kind, kind != (runsSinceStart[index] == 0 ? .initial : .didSet) {
      failures.append("e\(index)'s run \(runsSinceStart[index] + 1) of its observation had a \(kind) event")
    }
    // (Its first run comes before its token is kept.)
    if tokens[index] == nil, starting != index { failures.append("e\(index) ran after its cancellation") }
    if effectRuns[index] > 0, let before = effectReads[index] {
      let values = script.values(signals: signalValues, cached: cached)
      if !toldSinceRun[index] {
        failures.append("e\(index) ran, though no write reached it since its previous run")
      } else if !before.contains(where: { movesOn($0, values: values) }) {
        failures.append("e\(index) ran, though nothing it read moved on")
      }
    }
    effectRunsInOp[index] += 1
    effectRuns[index] += 1
    runsSinceStart[index] += 1
    running.append(index)
    let effect = script.effects[index]
    var reads: [(input: GraphInput, version: Int)] = []
    for (position, read) in effect.reads.enumerated() {
      if let write = effect.write, write.before == position { self.write(write.signal, write.value, by: index) }
      if let condition = read.onlyIfOdd {
        let value = self.read(condition, by: "e\(index)")
        reads.append((condition, version(of: condition)))
        if value % 2 == 0 { continue }
      }
      _ = self.read(read.input, by: "e\(index)")
      reads.append((read.input, version(of: read.input)))
    }
    if let write = effect.write, write.before >= effect.reads.count {
      self.write(write.signal, write.value, by: index)
    }
    running.removeLast()
    effectReads[index] = reads
    toldSinceRun[index] = false
    retireStaleAndUnobserved()
  }

  /// Reads `input` through the runtime, and checks the value against the account.
  private func read(_ input: GraphInput, by reader: String) -> Int {
    let value: Int
    let expected: Int
    switch input {
    case .signal(let index):
      value = signals.value(at: index)
      expected = signalValues[index]
    case .computation(let index):
      value = derived[index].value
      expected = script.values(signals: signalValues, cached: cached)[index]
    }
    if value != expected { failures.append("\(reader) read \(input) = \(value), expected \(expected)") }
    return value
  }

  private func version(of input: GraphInput) -> Int {
    switch input {
    case .signal(let index): signalVersions[index]
    case .computation(let index): computationVersions[index]
    }
  }

  /// Whether a write of `signal` reaches `effect`: its latest run read the signal, or a
  /// computation whose latest run read it, or one that did, and so on.
  private func reaches(_ effect: Int, _ signal: Int) -> Bool {
    if tokens[effect] == nil { return false }
    guard let reads = effectReads[effect] else { return false }
    return write(of: signal, reachesThrough: reads.map(\.input))
  }

  /// Whether a write of `signal` reaches computation `index` (as for an effect).
  private func computationReaches(_ index: Int, _ signal: Int) -> Bool {
    write(of: signal, reachesThrough: computationReads[index].map(\.input))
  }

  /// Whether `signal` is among `inputs`, or among what the latest runs of the
  /// computations among them read, and so on.
  private func write(of signal: Int, reachesThrough inputs: [GraphInput]) -> Bool {
    var seen: Set<Int> = []
    var inputs = inputs
    while let input = inputs.popLast() {
      switch input {
      case .signal(let index): if index == signal { return true }
      case .computation(let index): if seen.insert(index).inserted { inputs += computationReads[index].map(\.input) }
      }
    }
    return false
  }

  /// Retires the linked computations that no effect observes and that a write reached
  /// since they last ran (by the signals they reach through what they read: a pull that
  /// found nothing changed leaves them counted as stale, which only skips a check).
  private func retireStaleAndUnobserved() {
    let observed = observedComputations()
    for index in script.computations.indices where linked[index] && !observed.contains(index) {
      let stale = (0..<script.signalCount).contains { signal in
        signalVersions[signal] != signalVersionsAtRun[index][signal] && computationReaches(index, signal)
      }
      if stale { linked[index] = false }
    }
  }

  private func observedComputations() -> Set<Int> {
    var observed: Set<Int> = []
    var inputs = effectReads.compactMap { $0 }.flatMap { $0.map(\.input) }
    while let input = inputs.popLast() {
      if case .computation(let index) = input, observed.insert(index).inserted {
        inputs += computationReads[index].map(\.input)
      }
    }
    return observed
  }

  // MARK: Effects

  /// Checks which effects ran during the operation against what their previous runs
  /// read (`readsBefore`), and that no effect a write reached is left with something
  /// it read moved on.
  private func checkEffects(after operation: String, readsBefore: [[(input: GraphInput, version: Int)]?]) {
    let values = script.values(signals: signalValues, cached: cached)
    for index in script.effects.indices {
      let runs = effectRunsInOp[index]
      if runs > 1 + effectWritesInOp { failures.append("e\(index) ran \(runs) times in \(operation)") }
      guard tokens[index] != nil, let reads = effectReads[index] else { continue }
      if toldSinceRun[index], let moved = reads.first(where: { movesOn($0, values: values) }) {
        failures.append("e\(index) did not run in \(operation), though \(moved.input) moved on and a write reached it")
      }
      // Without writing effects, exactly: started in this operation, or cancelled in
      // it, nothing to expect.
      guard !script.effectsWrite, let before = readsBefore[index] else { continue }
      let moved = before.filter { movesOn($0, values: values) }
      if runs == 0, !moved.isEmpty {
        failures.append("e\(index) did not run in \(operation), though \(moved.map(\.input)) moved on")
      }
      if runs > 0, moved.isEmpty {
        failures.append("e\(index) ran in \(operation), though nothing it read moved on")
      }
    }
  }

  // MARK: One-shot trackings

  private func trackingFired(_ number: Int, computation: Int, kind: TrackingEvent.Kind) {
    if inTransaction { failures.append("tracking \(number) fired inside a transaction") }
    if kind != .didSet { failures.append("tracking \(number) fired with a \(kind) event") }
    guard let index = trackings.firstIndex(where: { $0.number == number }) else {
      failures.append("tracking \(number) fired twice")
      return
    }
    trackings.remove(at: index)
    firedInOp.append(number)
    readAtTopLevel(computation)
  }

  private func checkTrackings(after operation: String, before: [(number: Int, computation: Int, version: Int)]) {
    let values = script.values(signals: signalValues, cached: cached)
    for tracking in before {
      let fired = firedInOp.contains(tracking.number)
      let moved = movesOn((.computation(tracking.computation), tracking.version), values: values)
      if fired != moved {
        failures.append(
          "tracking \(tracking.number) of c\(tracking.computation) \(fired ? "fired" : "did not fire") in \(operation)")
      }
    }
  }

  /// Whether an input read at `read.version` has moved on, or would if a pull brought
  /// it up to date (`values`: the values computed by hand).
  private func movesOn(_ read: (input: GraphInput, version: Int), values: [Int]) -> Bool {
    guard version(of: read.input) == read.version else { return true }
    guard case .computation(let index) = read.input else { return false }
    switch script.computations[index].rule {
    case .equatable, .sameParity:
      // The value a recomputation would keep.
      return cached[index] != values[index]
    case .alwaysDiffering:
      // It would recompute, which is a change, if something it read moved on.
      return computationReads[index].contains { movesOn($0, values: values) }
    }
  }
}
