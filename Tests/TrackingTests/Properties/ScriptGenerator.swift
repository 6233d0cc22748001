import PropertyBased

/// Random scripts, and how to shrink a failing one.
///
/// Generation is biased towards what makes trackings interact: few objects and
/// properties (so writes hit watched properties often), tracking scopes that read
/// several properties and nest, writes inside `apply`, transactions around several
/// writes, releases while trackings are pending.
enum ScriptGenerator {
  /// Scripts of 1…`maxLength` top-level operations, for one thread.
  static func scripts(maxLength: Int = 24) -> Generator<Script, [Script]> {
    Generator(
      run: { rng in
        Script(ops: (0..<Int.random(in: 1...maxLength, using: &rng)).map { _ in topLevel(&rng, pauses: false) })
      },
      shrink: { script in shrink(script.ops).map(Script.init) }
    )
  }

  // MARK: Generation

  static func ref<R: RandomNumberGenerator>(_ rng: inout R) -> PropertyRef {
    PropertyRef.all.randomElement(using: &rng)!
  }

  static func mode<R: RandomNumberGenerator>(_ rng: inout R) -> TrackMode {
    TrackMode(
      events: TrackMode.Events.allCases.randomElement(using: &rng)!,
      deinitToo: Int.random(in: 0..<3, using: &rng) == 0,
      cancellable: Int.random(in: 0..<4, using: &rng) != 0)
  }

  static func observeReads<R: RandomNumberGenerator>(_ rng: inout R) -> [ObserveRead] {
    (0..<Int.random(in: 1...3, using: &rng)).map { _ in
      Bool.random(using: &rng) ? .read(ref(&rng)) : .readIfOdd(ref(&rng), then: ref(&rng))
    }
  }

  /// An operation at the top level of a thread's script.
  static func topLevel<R: RandomNumberGenerator>(_ rng: inout R, pauses: Bool) -> ScriptOp {
    switch Int.random(in: 0..<100, using: &rng) {
    case 0..<30: .write(ref(&rng))
    case 30..<33: .writeSame(ref(&rng))
    case 33..<58: .track(mode(&rng), body(&rng, depth: 1, pauses: pauses))
    case 58..<65: .observe(observeReads(&rng))
    case 65..<73: .cancel(Int.random(in: 1...8, using: &rng))
    case 73..<77: .stop(Int.random(in: 1...3, using: &rng))
    case 77..<84: .release(Slot.allCases.randomElement(using: &rng)!)
    case 84..<94: .transaction(transactionBody(&rng, depth: 1, pauses: pauses))
    default: pauses ? .pause : .write(ref(&rng))
    }
  }

  /// The body of a tracking's `apply`: mostly reads, with writes, nested trackings,
  /// releases and (in threaded scripts) pauses between them.
  static func body<R: RandomNumberGenerator>(_ rng: inout R, depth: Int, pauses: Bool) -> [ScriptOp] {
    (0..<Int.random(in: 1...4, using: &rng)).map { _ in
      switch Int.random(in: 0..<100, using: &rng) {
      case 0..<50: .read(ref(&rng))
      case 50..<62: .write(ref(&rng))
      case 62..<74: depth < 3 ? .track(mode(&rng), body(&rng, depth: depth + 1, pauses: pauses)) : .read(ref(&rng))
      case 74..<79: .release(Slot.allCases.randomElement(using: &rng)!)
      case 79..<83: .cancel(Int.random(in: 1...8, using: &rng))
      case 83..<86: .observe(observeReads(&rng))
      case 86..<90: depth < 3 ? .transaction(transactionBody(&rng, depth: depth + 1, pauses: pauses)) : .write(ref(&rng))
      default: pauses ? .pause : .read(ref(&rng))
      }
    }
  }

  /// The body of a transaction: mostly writes.
  static func transactionBody<R: RandomNumberGenerator>(_ rng: inout R, depth: Int, pauses: Bool) -> [ScriptOp] {
    (0..<Int.random(in: 1...5, using: &rng)).map { _ in
      switch Int.random(in: 0..<100, using: &rng) {
      case 0..<50: .write(ref(&rng))
      case 50..<62: depth < 3 ? .track(mode(&rng), body(&rng, depth: depth + 1, pauses: pauses)) : .write(ref(&rng))
      case 62..<70: .release(Slot.allCases.randomElement(using: &rng)!)
      case 70..<78: .cancel(Int.random(in: 1...8, using: &rng))
      case 78..<82: .stop(Int.random(in: 1...3, using: &rng))
      case 82..<86: .observe(observeReads(&rng))
      case 86..<90: depth < 3 ? .transaction(transactionBody(&rng, depth: depth + 1, pauses: pauses)) : .write(ref(&rng))
      default: pauses ? .pause : .write(ref(&rng))
      }
    }
  }

  // MARK: Shrinking

  /// Smaller variants of `ops`, most reduced first: without a run of operations (halves,
  /// quarters, …, single ones), then with one operation simplified. Every candidate is
  /// strictly smaller by (size, complexity of modes, numbers referred to), so shrinking
  /// ends.
  static func shrink(_ ops: [ScriptOp]) -> [[ScriptOp]] {
    var candidates = removals(ops)
    for index in ops.indices {
      for replacement in simplify(ops[index]) {
        var simpler = ops
        simpler.replaceSubrange(index...index, with: replacement)
        candidates.append(simpler)
      }
    }
    return candidates
  }

  /// `elements` without a run of elements: without each half, each quarter, …, each one.
  static func removals<Element>(_ elements: [Element]) -> [[Element]] {
    var candidates: [[Element]] = []
    var chunk = elements.count
    while chunk >= 1 {
      var start = 0
      while start < elements.count {
        var smaller = elements
        smaller.removeSubrange(start..<min(start + chunk, elements.count))
        candidates.append(smaller)
        start += chunk
      }
      chunk /= 2
    }
    return candidates
  }

  /// Simpler replacements for one operation (each a list of operations spliced in).
  static func simplify(_ op: ScriptOp) -> [[ScriptOp]] {
    switch op {
    case .track(let mode, let body):
      var simpler: [[ScriptOp]] = [body]
      for candidate in simplerModes(mode) { simpler.append([.track(candidate, body)]) }
      simpler += shrink(body).map { [.track(mode, $0)] }
      return simpler
    case .transaction(let body):
      return [body] + shrink(body).map { [.transaction($0)] }
    case .observe(let reads):
      var simpler: [[ScriptOp]] = []
      if reads.count > 1 {
        for index in reads.indices {
          var fewer = reads
          fewer.remove(at: index)
          simpler.append([.observe(fewer)])
        }
      }
      for (index, read) in reads.enumerated() {
        if case .readIfOdd(let ref, _) = read {
          var plainer = reads
          plainer[index] = .read(ref)
          simpler.append([.observe(plainer)])
        }
      }
      return simpler
    case .cancel(let number) where number > 1:
      return [[.cancel(number - 1)]]
    case .stop(let number) where number > 1:
      return [[.stop(number - 1)]]
    default:
      return []
    }
  }

  static func simplerModes(_ mode: TrackMode) -> [TrackMode] {
    var modes: [TrackMode] = []
    if mode.deinitToo { modes.append(TrackMode(events: mode.events, deinitToo: false, cancellable: mode.cancellable)) }
    if !mode.cancellable { modes.append(TrackMode(events: mode.events, deinitToo: mode.deinitToo, cancellable: true)) }
    for events in TrackMode.Events.allCases where events.rawValue < mode.events.rawValue {
      modes.append(TrackMode(events: events, deinitToo: mode.deinitToo, cancellable: mode.cancellable))
    }
    return modes
  }
}
