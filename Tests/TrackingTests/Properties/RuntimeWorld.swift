import Tracking

/// The object a script's slots hold: the slot's two properties are `<slot>x` and
/// `<slot>y` (A's are `ax`, `ay`), so a ``TrackingEvent``'s property name says which
/// slot changed. Each object uses only its own slot's two.
///
/// `@unchecked Sendable`: observation closures hold it weakly across threads, and every
/// access to its properties happens on one thread at a time (a threaded script runs
/// its threads by turns, handing over through semaphores).
@Trackable final class ScriptCell: @unchecked Sendable {
  var ax = 0
  var ay = 0
  var bx = 0
  var by = 0
  var cx = 0
  var cy = 0

  /// The value of the property numbered `index` in `PropertyRef.cellIndex` order.
  func value(at index: Int) -> Int {
    switch index {
    case 0: ax
    case 1: ay
    case 2: bx
    case 3: by
    case 4: cx
    default: cy
    }
  }

  func set(_ value: Int, at index: Int) {
    switch index {
    case 0: ax = value
    case 1: ay = value
    case 2: bx = value
    case 3: by = value
    case 4: cx = value
    default: cy = value
    }
  }
}

/// A slot's object as an observation closure captures it: weakly, so that the
/// observation does not keep it alive (releasing the slot must deinitialize it).
struct WeakCell: Sendable {
  weak var cell: ScriptCell?
}

/// Runs scripts against the real runtime and logs every callback it receives.
///
/// `@unchecked Sendable`: the threads of a threaded script share it, but they run by
/// turns (see `TurnScheduler`), so its state is touched by one thread at a time; the
/// callbacks only touch `log`, which has its own lock.
final class RuntimeWorld: ScriptBackend, @unchecked Sendable {
  let log = EventLog()
  private var cells: [ScriptCell] = Slot.allCases.map { _ in ScriptCell() }
  private var lastValue = 0
  private var trackCount = 0
  private var handles: [Int: PendingTracking] = [:]
  private var observeCount = 0
  private var tokens: [Int: TrackingToken] = [:]

  func read(_ ref: PropertyRef, thread: Int) {
    _ = cells[ref.slot.rawValue].value(at: ref.cellIndex)
  }

  func write(_ ref: PropertyRef, sameValue: Bool, thread: Int) {
    let cell = cells[ref.slot.rawValue]
    if sameValue {
      cell.set(cell.value(at: ref.cellIndex), at: ref.cellIndex)
    } else {
      lastValue += 1
      cell.set(lastValue, at: ref.cellIndex)
    }
  }

  func track(_ mode: TrackMode, thread: Int, apply: () -> Void) {
    trackCount += 1
    let number = trackCount
    let label = "T\(number)"
    let log = log
    var handle: PendingTracking?
    if mode.events == .onChange {
      let onChange: @Sendable () -> Void = { log("\(label) onChange") }
      if mode.cancellable {
        handle = withCancellableTracking(apply, onChange: onChange).tracking
      } else {
        withTracking(apply, onChange: onChange)
      }
    } else {
      let onChange: @Sendable (TrackingEvent) -> Void = { event in log(Self.describe(event, label)) }
      if mode.cancellable {
        handle = withCancellableTracking(options: mode.options, apply, onChange: onChange).tracking
      } else {
        withTracking(options: mode.options, apply, onChange: onChange)
      }
    }
    if let handle { handles[number] = handle }
  }

  static func describe(_ event: TrackingEvent, _ label: String) -> String {
    event.kind == .deinit ? "\(label) deinit" : "\(label) \(event.kind) \(PropertyRef.named(event.propertyName))"
  }

  func observe(_ reads: [ObserveRead], thread: Int) {
    observeCount += 1
    let label = "O\(observeCount)"
    let captured = cells.map { WeakCell(cell: $0) }
    let log = log
    let token = Tracking.observe {
      func look(_ ref: PropertyRef) -> String {
        captured[ref.slot.rawValue].cell.map { "\($0.value(at: ref.cellIndex))" } ?? "-"
      }
      var parts: [String] = []
      for read in reads {
        switch read {
        case .read(let ref):
          parts.append("\(ref)=\(look(ref))")
        case .readIfOdd(let ref, let then):
          let value = look(ref)
          parts.append("\(ref)=\(value)")
          if let number = Int(value), number % 2 != 0 { parts.append("\(then)=\(look(then))") }
        }
      }
      log("\(label) run \(parts.joined(separator: " "))")
    }
    tokens[observeCount] = token
  }

  func cancel(tracking number: Int, thread: Int) {
    guard let handle = handles[number] else { return }
    handle.cancel()
    log("T\(number) cancel")
  }

  func stop(observation number: Int, thread: Int) {
    guard let token = tokens[number] else { return }
    token.cancel()
    log("O\(number) stop")
  }

  func release(_ slot: Slot, thread: Int) {
    cells[slot.rawValue] = ScriptCell()
  }

  func transaction(thread: Int, _ body: () -> Void) {
    withTransaction(body)
  }

  var finalValues: [Int] { PropertyRef.all.map { cells[$0.slot.rawValue].value(at: $0.cellIndex) } }

  func finish() {
    for slot in Slot.allCases { release(slot, thread: 0) }
    for token in tokens.values { token.cancel() }
  }
}
