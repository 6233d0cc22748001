import Foundation

/// An effect's run that makes its own write, and how its latest run is checked at the
/// end (`ThreadedDerivedGraphWorld`, `ScheduledDerivedGraphWorld`): a read made before
/// the run's own write may be left behind, and is accounted for by the values the run's
/// reads and writes imply.

/// One step of an effect's run: a read and the value it returned, or a write made on
/// the run's thread while the run was under way (by the run itself or by a run nested
/// in it) and the value the signal held before it.
public enum EffectRunEvent: Sendable {
  case read(GraphInput, Int)
  case wrote(signal: Int, before: Int, value: Int)
}

/// The effects' runs under way on one thread, innermost last: a write is logged in each.
final class EffectRunStack {
  var logs: [EffectRunLog] = []

  /// The current thread's stack, made on first use.
  static var current: EffectRunStack {
    let key = "DerivedGraphScripts.EffectRunStack"
    if let stack = Thread.current.threadDictionary[key] as? EffectRunStack { return stack }
    let stack = EffectRunStack()
    Thread.current.threadDictionary[key] = stack
    return stack
  }
}

/// What one run did so far.
final class EffectRunLog {
  var events: [EffectRunEvent] = []
}

extension LiveDerivedGraph {
  /// Runs effect `index`'s closure: its reads, and its own write where it makes it.
  /// Returns what the run did, in order, with the writes made on this thread by the
  /// runs nested in it. Call it as the effect's run, on the thread (or actor) the run
  /// is on.
  public func runEffect(_ index: Int) -> [EffectRunEvent] {
    let effect = script.effects[index]
    let stack = EffectRunStack.current
    let log = EffectRunLog()
    stack.logs.append(log)
    for (position, read) in effect.reads.enumerated() {
      if let write = effect.write, write.before == position { writeOwn(write, on: stack) }
      if let condition = read.onlyIfOdd {
        let value = value(of: condition)
        log.events.append(.read(condition, value))
        if value % 2 == 0 { continue }
      }
      log.events.append(.read(read.input, value(of: read.input)))
    }
    if let write = effect.write, write.before == effect.reads.count { writeOwn(write, on: stack) }
    stack.logs.removeLast()
    return log.events
  }

  /// An effect's write: logged in every run under way on this thread, then made. A
  /// write of the value already there is skipped (`LockedCell` would announce it), so
  /// that the runs effects' writes cause one another end.
  private func writeOwn(_ write: GraphEffectWrite, on stack: EffectRunStack) {
    let cell = signals[write.signal]
    let before = cell.untrackedValue
    guard before != write.value else { return }
    for log in stack.logs { log.events.append(.wrote(signal: write.signal, before: before, value: write.value)) }
    cell.value = write.value
  }

  /// What the effect's latest run read against the values at the end.
  ///
  /// Without writes of its own, each read returned the value at the end: a change made
  /// after a read, on any thread, reaches the run, which then runs again.
  ///
  /// With them, a read made before such a write may be left behind, and the write may
  /// also change what the run's links reach (a computation whose condition flips stops
  /// reading a signal), so that a later change of a signal no longer reached is rightly
  /// not heard. So the run is accounted for by a search: some values of the signals
  /// when it started (0…2, as every write here) must give every value it read, with the
  /// writes on its thread applied in order as it made them; and every signal that
  /// changed after the run must be outside what its links reach once it ended (its
  /// reads, and what the computations among them read for the values then). If no
  /// such values exist, a change was lost or a read was wrong. Where the effect can
  /// reach a computation that keeps values equal by its rule (`sameParity`), its values
  /// and the links below it depend on what it cached, and such a run is not checked.
  public func check(effect index: Int, run events: [EffectRunEvent]) -> [String] {
    var stale: [String] = []
    for case .read(let input, let seen) in events where seen != value(of: input) {
      stale.append("\(input) = \(seen), and it is \(value(of: input)) at the end")
    }
    guard !stale.isEmpty else { return [] }
    let wrote = events.contains { if case .wrote = $0 { true } else { false } }
    if wrote {
      let inputs = events.compactMap { event -> GraphInput? in
        if case .read(let input, _) = event { input } else { nil }
      }
      if inputs.contains(where: keepsEqualValues) || explains(events, current: signals.map(\.untrackedValue)) {
        return []
      }
    }
    let note = wrote ? " (no values at its start explain its reads and own writes)" : ""
    return stale.map { "e\(index)'s latest run read \($0)\(note)" }
  }

  /// Whether some values of the signals at the start of a run give every value it read,
  /// and leave every change after it outside what its links reach (see ``check(effect:run:)``).
  private func explains(_ events: [EffectRunEvent], current: [Int]) -> Bool {
    let count = current.count
    let none = [Int?](repeating: nil, count: script.computations.count)
    let combinations = (0..<count).reduce(1) { product, _ in product * 3 }
    candidates: for code in 0..<combinations {
      // The digits of `code` in base 3, one per signal.
      var values: [Int] = []
      var digits = code
      for _ in 0..<count {
        values.append(digits % 3)
        digits /= 3
      }
      var reached: Set<Int> = []
      var reads: [GraphInput] = []
      for event in events {
        switch event {
        case .wrote(let signal, let before, let value):
          guard values[signal] == before else { continue candidates }
          values[signal] = value
        case .read(let input, let seen):
          guard script.value(of: input, signals: values, computed: script.values(signals: values, cached: none)) == seen
          else { continue candidates }
          reads.append(input)
        }
      }
      let computed = script.values(signals: values, cached: none)
      for input in reads { reached.formUnion(signalsRead(through: input, signals: values, computed: computed)) }
      if reached.allSatisfy({ values[$0] == current[$0] }) { return true }
    }
    return false
  }

  /// The signals that a link to `input` reaches when the signals hold `signals`: the
  /// signal itself, or what the computation reads for those values, and so on.
  private func signalsRead(through input: GraphInput, signals: [Int], computed: [Int]) -> Set<Int> {
    switch input {
    case .signal(let index):
      return [index]
    case .computation(let index):
      var reached: Set<Int> = []
      for read in script.computations[index].reads {
        if let condition = read.onlyIfOdd {
          reached.formUnion(signalsRead(through: condition, signals: signals, computed: computed))
          if script.value(of: condition, signals: signals, computed: computed) % 2 == 0 { continue }
        }
        reached.formUnion(signalsRead(through: read.input, signals: signals, computed: computed))
      }
      return reached
    }
  }

  /// Whether `input` is a computation that keeps a recomputed value only equal by its
  /// rule (`sameParity`), or one that may read such a computation.
  private func keepsEqualValues(_ input: GraphInput) -> Bool {
    guard case .computation(let index) = input else { return false }
    let computation = script.computations[index]
    if computation.rule == .sameParity { return true }
    return computation.reads.contains { read in
      keepsEqualValues(read.input) || read.onlyIfOdd.map(keepsEqualValues) == true
    }
  }
}
