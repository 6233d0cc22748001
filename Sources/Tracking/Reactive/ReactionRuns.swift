/// The steps of a ``Reaction``'s runs, on its ``NodeState`` (under its lock), and the
/// values that carry a change from the thread that made it to a run. The rules they
/// serve are in `Reaction`'s documentation.

/// A change as a node keeps it (pending, then as the latest run's): its kind and its
/// description, without an event around it (a run's event cancels the reaction,
/// whichever observer reported the change), so that keeping one refers to nothing but
/// the change. Moved, not copied, from `pendingChange` to `lastChange`.
struct KeptChange {
  let kind: TrackingEvent.Kind
  let description: ChangeDescription
}

/// What a run is told of the change that caused it.
struct RunChange {
  let kind: TrackingEvent.Kind
  /// For a closure that takes events.
  let source: EventSource?
  /// Only computations it read may have changed: pull them, and run only if one did.
  let mustPull: Bool
  /// The change, to become the latest run's once a pull confirms it.
  var confirmed: KeptChange?
}

/// What a change does about running the closure.
enum RunStart {
  /// Nothing now: the change is ignored, or waits for the run under way, a scheduled
  /// run, the batch it is queued in, or the owner that was told.
  case none
  /// A run starts on this thread now, for this change.
  case now(RunChange)
  /// A run must be scheduled on the closure's isolation.
  case scheduled
  /// The reaction waits for the end of the change's batch.
  case queue
  /// The owner must be told that a run is needed.
  case tellOwner
  /// The owner, told already and not run yet, hears of one more change.
  case changedAgain
}

/// What follows the end of a run.
enum RunEnd {
  /// Nothing: no change arrived meanwhile.
  case idle
  /// The next run, already marked as under way on this thread, for this change.
  case next(RunChange)
  /// A change arrived; the next run must be scheduled (or its owner told).
  case scheduled
  /// The reaction was cancelled during the run.
  case cancelled
}

extension NodeState {
  /// Marks a run as under way on `thread` and returns its change: the pending one (or
  /// a did-set about nothing in particular). `keepsSource`: the closure takes events.
  mutating func beginRun(on thread: UInt, keepsSource: Bool) -> RunChange {
    let change = pendingChange.take() ?? KeptChange(kind: .didSet, description: .none)
    let mustPull = pending && !dirty
    dirty = false
    pending = false
    changedInBatchOf = 0
    changedInSeveralBatches = false
    nextRunIsScheduled = false
    runningThread = thread
    causes.beginRun()
    let source = keepsSource ? change.description.eventSource : nil
    if mustPull { return RunChange(kind: change.kind, source: source, mustPull: true, confirmed: change) }
    lastChange = consume change
    return RunChange(kind: lastChange!.kind, source: source, mustPull: false)
  }

  /// Marks the run under way as ended, and says what comes next. `changed`: another
  /// thread changed what the run read before its observer could see it. With
  /// `runsHere`, a next run is marked as under way on `thread` at once.
  mutating func endRun(changed: Bool, runsHere: Bool, thread: UInt, keepsSource: Bool) -> RunEnd {
    runningThread = 0
    if changed {
      dirty = true
      if pendingChange == nil { pendingChange = KeptChange(kind: .didSet, description: .none) }
    }
    if cancelled { return .cancelled }
    guard isStale else { return .idle }
    if runsHere && !nextRunIsScheduled { return .next(beginRun(on: thread, keepsSource: keepsSource)) }
    return .scheduled
  }
}
