import CTrackingSupport

/// A ``Reaction``'s runs: the values that carry a change from the thread that made it
/// to a run, the steps of a run on its ``NodeState`` (under its lock), and the runs
/// themselves, on the closure's isolation or the owner's thread. How a change leads to a
/// run is in `Reaction.swift`, and the rules they serve in `Reaction`'s documentation.

/// A change as a node keeps it (pending, then as the latest run's): its kind and its
/// description, without an event around it (a run's event cancels the reaction,
/// whichever observer reported the change), so that keeping one refers to nothing but
/// the change. Moved, not copied, from `pendingChange` to `lastChange` (when the run
/// pulls first, once the pull confirms it: see ``NodeState/unconfirmedChange``).
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
  /// The change waits meanwhile (see ``NodeState/unconfirmedChange``).
  let mustPull: Bool
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
    let mustPull = pending && !dirty
    dirty = false
    pending = false
    changedInBatchOf = 0
    changedInSeveralBatches = false
    nextRunIsScheduled = false
    runningThread = thread
    causesBeginRun()
    if mustPull {
      // The change stays where it is until the pull confirms or drops it.
      if pendingChange == nil { pendingChange = KeptChange(kind: .didSet, description: .none) }
      pendingIsUnconfirmed = true
      let change = pendingChange.unsafelyUnwrapped
      return RunChange(
        kind: change.kind, source: keepsSource ? change.description.eventSource : nil, mustPull: true)
    }
    let change = pendingChange.take() ?? KeptChange(kind: .didSet, description: .none)
    let source = keepsSource ? change.description.eventSource : nil
    lastChange = consume change
    return RunChange(kind: lastChange!.kind, source: source, mustPull: false)
  }

  /// Keeps `change` as the pending one if it is of a kind the options asked for
  /// (`requested`), or if there is none: the change of a run under way that pulls first
  /// is set aside first, as it is not for the next run.
  mutating func keepPending(_ change: () -> KeptChange, requested: Bool) {
    if pendingIsUnconfirmed {
      unconfirmedChange = pendingChange.take()
      pendingIsUnconfirmed = false
    }
    if requested || pendingChange == nil { pendingChange = change() }
  }

  /// The pull of the run under way found a change: its change becomes the latest run's.
  mutating func confirmChange() {
    if pendingIsUnconfirmed {
      lastChange = pendingChange.take()
      pendingIsUnconfirmed = false
    } else {
      lastChange = takeUnconfirmedChange()
    }
  }

  /// The pull of the run under way found nothing changed: its change is dropped.
  mutating func dropUnconfirmedChange() {
    if pendingIsUnconfirmed {
      pendingChange = nil
      pendingIsUnconfirmed = false
    } else {
      unconfirmedChange = nil
    }
  }

  /// A cancellation drops every change kept.
  mutating func dropChanges() {
    pendingChange = nil
    unconfirmedChange = nil
    lastChange = nil
    pendingIsUnconfirmed = false
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

// MARK: Runs (on the closure's isolation)

extension Reaction {
  /// Runs the closure for `change`, then again for as long as a change that arrived
  /// meanwhile asks for a run here. The first run is marked as under way on this thread.
  /// Kept out of line: it has four callers (the first run, a change that runs where it
  /// happens, the same alone in its batch, a scheduled run), and `callback.rerun`
  /// measured the same instructions either way.
  @inline(never)
  func runLoop(_ change: consuming RunChange) {
    // The body is switched over in place, not bound first: a binding held across the
    // loop would retain the closure for it.
    if case .none = body { return }
    var next: RunChange? = consume change
    while let change = next.take() {
      next = runMarked(change) { reads in
        // Called on the stored optional in place: bound to a name first (a `switch`),
        // the closure was retained and released per run.
        collect(into: &reads) {
          // `cancel()` on the event ends this reaction, not only its observer.
          self.body?.call { TrackingEvent(kind: change.kind, source: change.source, canceller: self) }
        }
      }
    }
  }

  /// Runs `body` now as this reaction's run, on the caller's thread, if a change asks
  /// for one (or it never ran): for owners, who call it when they were told a run is
  /// needed, and may call it any time. Returns whether `body` ran.
  ///
  /// Not generic: owners are often generic themselves (``TrackedValues``, the Combine
  /// bridge) and call it from code specialized in another module, where a generic
  /// run would look up `Optional<T>`'s metadata at every call. A body that computes a
  /// value stores it in the caller's own variable.
  @discardableResult
  package func run(ifNeeded: Bool = true, _ body: () -> Void) -> Bool {
    let thread = tracking_current_thread()
    let change = state.withLock { state -> RunChange? in
      state.scheduled = false
      guard !state.cancelled, state.runningThread == 0 else { return nil }
      guard !ifNeeded || state.isStale else { return nil }
      return state.beginRun(on: thread, keepsSource: false)
    }
    guard let change else { return false }
    _ = runMarked(change) { reads in collect(into: &reads, body) }
    return true
  }

  func tellOwnerIfNeeded() {
    guard let owner else { return }
    let tell = state.withLock { state -> Bool in
      guard !state.cancelled, state.isStale, !state.scheduled else { return false }
      state.scheduled = true
      return true
    }
    if tell { owner.needsRun() }
  }

  /// One run, marked as under way on this thread: pulls first if only computations
  /// changed (and skips the run if none did), then runs `body` tracked and ends the run.
  /// Returns the change of the next run when it must start now, on this thread.
  /// Always inlined: left to the optimizer, whether it is inlined into ``runLoop(_:)``
  /// flips with unrelated changes elsewhere in the module, and out of line the run's
  /// change and end are copied through value witnesses (about 600 instructions more
  /// per continuous re-run, `callback.rerun`).
  @inline(__always)
  func runMarked(_ change: RunChange, _ body: (inout AccessList) -> Void) -> RunChange? {
    if change.mustPull {
      guard pullConfirmsChange() else { return endRun(changed: false) }
      state.withLock { $0.confirmChange() }
    }
    if _slowPath(!owned.isEmpty) { endOwned() }
    // The run's scope, in stack memory deinitialized here, releasing only what it
    // holds: a run that read only computations releases nothing. Written
    // out here and in `DerivedComputation.recompute(thread:)`: one generic helper for
    // both measured 5–18 % slower on the derived and re-run rows (the scope no longer
    // stays in place through its extra closure).
    let end = withUnsafeTemporaryAllocation(of: AccessList.self, capacity: 1) { buffer in
      let reads = buffer.baseAddress.unsafelyUnwrapped
      reads.initialize(to: AccessList())
      reads.pointee.node = graph
      let end = runTracked(recording: &reads.pointee, body)
      AccessList.deinitialize(reads)
      return end
    }
    return follow(end)
  }

  /// Runs `body` tracked into `reads`, and ends the run (see ``runMarked(_:_:)``).
  @inline(__always)
  func runTracked(recording reads: inout AccessList, _ body: (inout AccessList) -> Void) -> RunEnd {
    makeCurrent { body(&reads) }
    let thread = tracking_current_thread()
    let runsHere = runsWhereChanged
    return endRun(reads) { state, changedElsewhere in
      state.endRun(changed: changedElsewhere, runsHere: runsHere, thread: thread, keepsSource: bodyTakesChange)
    }
  }

  /// Whether a computation this reaction read changed value (pulling each up to date,
  /// in the order the latest run read them), for a run started to find out.
  ///
  /// Such a run starts only when nothing but computations changed: a property the
  /// latest run read directly that has moved on since came with a change made during
  /// the pull (a recomputation may take a while, and other threads write meanwhile),
  /// or with the latest run's own write. The first kind marks the reaction dirty, and
  /// the next run, for that change, sees it: it does not confirm this run's change. The
  /// other, or a write whose mark has not reached the reaction yet, does (one run more
  /// rather than one too few).
  func pullConfirmsChange() -> Bool {
    switch pullInputs(untilChanged: true) {
    case .computationChanged: return true
    case .unchanged: return false
    case .propertyMoved: return !state.withLock { $0.dirty }
    }
  }

  /// Ends a run that did not happen (nothing it read had changed).
  func endRun(changed: Bool) -> RunChange? {
    let thread = tracking_current_thread()
    let runsHere = runsWhereChanged
    let end = state.withLock { state in
      state.dropUnconfirmedChange()
      return state.endRun(changed: changed, runsHere: runsHere, thread: thread, keepsSource: bodyTakesChange)
    }
    return follow(end)
  }

  @inline(__always)
  func follow(_ end: consuming RunEnd) -> RunChange? {
    switch consume end {
    case .idle: return nil
    case .next(let change): return change
    case .scheduled:
      if owner != nil { tellOwnerIfNeeded() } else { scheduleRun() }
    case .cancelled: finishCancel()
    }
    return nil
  }
}
