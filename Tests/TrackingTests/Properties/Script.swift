import Tracking

// The language of the property-based tests: a script is a list of operations over three
// objects (slots A, B, C) with two tracked properties each (x, y). The same script runs
// against the real runtime (`RuntimeWorld`) and against the reference model
// (`ReferenceModel`); both must write the same log of callbacks.
//
// References between operations are by number (`cancel T3` cancels the third tracking
// the script started), never by position in the script, so that any script obtained by
// deleting operations is still a valid script: the shrinker relies on that.

/// One of the three objects a script works on. Releasing a slot's object replaces it
/// with a fresh one, so a slot always holds a live object.
enum Slot: Int, CaseIterable, Hashable, Sendable, CustomStringConvertible {
  case a, b, c
  var description: String { ["A", "B", "C"][rawValue] }
}

/// A tracked property of the object in a slot: `A.x`, `C.y`, ….
struct PropertyRef: Hashable, Sendable, CustomStringConvertible {
  let slot: Slot
  /// 0 for `x`, 1 for `y`.
  let property: Int

  /// The number of the property in `ScriptCell` (slot-major: `ax`, `ay`, `bx`, …).
  var cellIndex: Int { slot.rawValue * 2 + property }

  var description: String { "\(slot).\(property == 0 ? "x" : "y")" }

  static let all: [PropertyRef] = Slot.allCases.flatMap { slot in [0, 1].map { PropertyRef(slot: slot, property: $0) } }

  /// The reference named by a `ScriptCell` property name (`"by"` → `B.y`), as a
  /// ``TrackingEvent`` reports it.
  static func named(_ name: String?) -> String {
    guard let name, name.count == 2, let slot = name.first, let property = name.last else { return "?" }
    return "\(slot.uppercased()).\(property)"
  }
}

/// Which one-shot tracking API a `track` operation uses, and with which options.
struct TrackMode: Hashable, Sendable, CustomStringConvertible {
  enum Events: Int, Hashable, Sendable, CaseIterable {
    /// `withTracking(_:onChange:)`, Apple's classic shape (no event, no options).
    case onChange
    case willSet
    case didSet
    case willSetDidSet
    /// No change events: `[.deinit]` alone (with `deinit`), or empty options.
    case none
  }

  var events: Events
  /// Adds `.deinit` to the options (ignored for `onChange`, which has none).
  var deinitToo: Bool
  /// Through `withCancellableTracking` (the handle can cancel it) or `withTracking`.
  var cancellable: Bool

  var options: TrackingOptions {
    var options: TrackingOptions = []
    switch events {
    case .onChange, .none: break
    case .willSet: options = .willSet
    case .didSet: options = .didSet
    case .willSetDidSet: options = [.willSet, .didSet]
    }
    if deinitToo && events != .onChange { options.insert(.deinit) }
    return options
  }

  var description: String {
    let shape = events == .onChange ? "onChange" : options.description
    return cancellable ? shape : "\(shape), uncancellable"
  }

  /// How far from the simplest mode this one is; the shrinker only moves it down.
  var complexity: Int { events.rawValue + (deinitToo ? 5 : 0) + (cancellable ? 0 : 1) }
}

/// A read made by an `observe` closure: one property, or one property and, when its
/// value is odd, another one (so that what a run depends on changes from run to run).
enum ObserveRead: Hashable, Sendable, CustomStringConvertible {
  case read(PropertyRef)
  case readIfOdd(PropertyRef, then: PropertyRef)

  var description: String {
    switch self {
    case .read(let ref): "\(ref)"
    case .readIfOdd(let ref, let then): "\(ref)?\(then)"
    }
  }
}

/// One operation of a script.
indirect enum ScriptOp: Hashable, Sendable, CustomStringConvertible {
  /// Reads a property (recorded by the tracking scopes open on this thread).
  case read(PropertyRef)
  /// Writes a new value (a number no write used before), which notifies.
  case write(PropertyRef)
  /// Writes the value the property already holds, which notifies no one.
  case writeSame(PropertyRef)
  /// Starts a one-shot tracking `T<n>` whose `apply` runs the body.
  case track(TrackMode, [ScriptOp])
  /// Starts a continuous observation `O<n>` (`observe`), held by its token.
  case observe([ObserveRead])
  /// Cancels the handle of tracking `T<n>`, if the script has it (a tracking started
  /// with `withTracking`, or whose `apply` is still running, has none).
  case cancel(Int)
  /// Cancels the token of observation `O<n>`, if it exists.
  case stop(Int)
  /// Releases the slot's object (it deinitializes) and puts a fresh one in its place.
  case release(Slot)
  /// Runs the body inside `withTransaction`.
  case transaction([ScriptOp])
  /// Hands the turn to the next thread of the schedule (threaded scripts only).
  case pause

  var description: String {
    switch self {
    case .read(let ref): "\(ref)"
    case .write(let ref): "set \(ref)"
    case .writeSame(let ref): "same \(ref)"
    case .track(let mode, let body): "track(\(mode)) {\(Self.describe(body))}"
    case .observe(let reads): "observe {\(reads.map(\.description).joined(separator: "; "))}"
    case .cancel(let number): "cancel T\(number)"
    case .stop(let number): "stop O\(number)"
    case .release(let slot): "release \(slot)"
    case .transaction(let body): "transaction {\(Self.describe(body))}"
    case .pause: "pause"
    }
  }

  static func describe(_ ops: [ScriptOp]) -> String {
    ops.isEmpty ? "" : " " + ops.map(\.description).joined(separator: "; ") + " "
  }

  /// The number of operations, nested ones included (what shrinking reduces first).
  var size: Int {
    switch self {
    case .track(_, let body), .transaction(let body): 1 + body.reduce(0) { $0 + $1.size }
    case .observe(let reads): 1 + reads.count
    default: 1
    }
  }
}

/// A script for one thread.
struct Script: Hashable, Sendable, CustomStringConvertible {
  var ops: [ScriptOp]
  var description: String { ops.isEmpty ? "(empty)" : ops.map(\.description).joined(separator: "; ") }
}

extension ScriptOp {
  /// Whether this operation is or contains a transaction.
  var hasTransaction: Bool {
    switch self {
    case .transaction: true
    case .track(_, let body): body.contains { $0.hasTransaction }
    default: false
    }
  }

  /// Whether this operation is or contains a transaction with a pause inside (where
  /// other threads act while the transaction's batch is open).
  var pausesInsideTransaction: Bool {
    switch self {
    case .transaction: pauseCount > 0
    case .track(_, let body): body.contains { $0.pausesInsideTransaction }
    default: false
    }
  }

  /// This operation with every tracking mode passed through `transform`.
  func mapModes(_ transform: (TrackMode) -> TrackMode) -> ScriptOp {
    switch self {
    case .track(let mode, let body): .track(transform(mode), body.map { $0.mapModes(transform) })
    case .transaction(let body): .transaction(body.map { $0.mapModes(transform) })
    default: self
    }
  }
}
