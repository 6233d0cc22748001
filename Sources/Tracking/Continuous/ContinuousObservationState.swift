/// The state of a `ContinuousObservation`, kept under its lock, and the values that
/// carry a change from the thread that made it to a run and from one run to the next.
/// The rules they serve are in `ContinuousObservation`'s documentation.
extension ContinuousObservation {
  struct State {
    /// Whether the body takes the change (as an event); else a run is handed only the
    /// change's kind, and the description moves from `pending` to `lastChange`
    /// without a copy.
    let bodyTakesChange: Bool
    var cancelled = false
    var runningThread: UInt?
    /// Whether a change arrived that the next run must see.
    var needsRun = false
    /// The latest change of a kind the options asked for, for the next run.
    var pending: KeptChange?
    var scheduled = false
    /// The pending change must not start a run on the thread that ends the run under
    /// way: it has not happened yet (an Apple object's will-set), so its run is scheduled.
    var nextRunIsScheduled = false
    var observer: TrackingObserver?
    /// What the installed observer's run read, by address; `nil` when there is
    /// nothing to compare a run with (no observer yet, or forgotten because an
    /// object it described was deallocated): the next run then installs afresh.
    var signature: ReadSignature?
    /// The storages the installed observer is on, for the sweep at cancellation.
    var storages: [StorageHandle] = []
    /// What the latest run read (for introspection), by object type.
    var reads: [(type: any Trackable.Type, properties: PropertySet)] = []
    /// The change of the latest run.
    var lastChange: KeptChange?

    /// Marks a run as under way on `thread` and returns its change: the pending one
    /// (or a did-set about nothing in particular).
    mutating func beginRun(on thread: UInt) -> Change {
      let change = pending.take() ?? KeptChange(kind: .didSet, description: .none)
      needsRun = false
      nextRunIsScheduled = false
      runningThread = thread
      let forRun = Change(kind: change.kind, source: bodyTakesChange ? change.description.eventSource : nil)
      lastChange = consume change
      return forRun
    }

    /// Marks the run under way as ended, and says what comes next. `changed`: another
    /// thread changed what the run read while it was reading. With `runsHere`, a next
    /// run is marked as under way on `thread` at once.
    mutating func endRun(changed: Bool, runsHere: Bool, thread: UInt) -> RunEnd {
      runningThread = nil
      if changed {
        needsRun = true
        if pending == nil { pending = KeptChange(kind: .didSet, description: .none) }
      }
      if cancelled { return .cancelled }
      guard needsRun else { return .idle }
      return runsHere && !nextRunIsScheduled ? .next(beginRun(on: thread)) : .scheduled
    }
  }

  /// A change as this observation keeps it (pending, then as the latest run's): an
  /// event without its canceller (a run's event cancels this observation, whichever
  /// observer reported the change), so that keeping one refers to nothing but the
  /// change. A plain body's observers have it described without its object (see
  /// ``ChangeDescription``). Moved, not copied, from `pending` to `lastChange`.
  struct KeptChange {
    let kind: TrackingEvent.Kind
    let description: ChangeDescription
  }

  /// What a run is told of the change that caused it: its kind, and for a body that
  /// takes events, its source. Two words, cheap to pass along.
  struct Change {
    let kind: TrackingEvent.Kind
    let source: EventSource?
  }

  /// What a change does about running the closure.
  enum RunStart {
    /// Nothing now: the change is ignored, or waits for the run under way or scheduled.
    case none
    /// A run starts on this thread now, for this change.
    case now(Change)
    /// A run must be scheduled on the closure's isolation.
    case scheduled
  }

  /// What follows the end of a run.
  enum RunEnd {
    /// Nothing: no change arrived meanwhile.
    case idle
    /// The next run, already marked as under way on this thread, for this change.
    case next(Change)
    /// A change arrived; the next run must be scheduled on the closure's isolation.
    case scheduled
    /// The observation was cancelled during the run.
    case cancelled
  }
}
