import CTrackingSupport

/// A node that re-runs a closure when what it read changes: the engine of `observe`,
/// `withContinuousTracking` and `onChange(of:)`, and — with runs its owner starts — of
/// ``TrackedValues``, the ``RenderLoop`` and the Combine bridge.
///
/// **Rule**: a change either starts a run (at once, where it happens, for immediate
/// delivery on the closure's isolation; at the end of the change's batch for a did-set),
/// or is left as the pending change for the run under way (which runs again when it
/// ends), for a scheduled run, or for the owner that was told. So every change that
/// arrives after a run's reads is followed by a run that reads again. A run caused only
/// by computations it read (*pending*) first pulls them, and happens only if one of
/// their values changed.
///
/// How runs happen is the reaction's schedule (`owner`, `immediate`): on the closure's
/// isolation, or by its owner (told through a callback, on the mutating thread, that a
/// run is needed).
///
/// **Ownership.** During each run the reaction is the current ``LifetimeOwner``: what
/// the closure starts (observations, derived values, scopes, cleanups) is `owned` by
/// that run, and ended just before the next run's closure (a run skipped because no
/// value it read changed ends nothing) and when the reaction is cancelled. `owned` is
/// touched without a lock, by one thread at a time: the thread running the reaction
/// (between `beginRun` and `endRun`, both under the lock, which orders it with the
/// next run's thread); once cancelled, by whichever thread first sets `ownedEnded`
/// while no run is under way — the canceller, or the run that saw the cancellation.
package final class Reaction: ReactiveNode, @unchecked Sendable {
  /// The callbacks of a reaction whose owner runs it (``run(ifNeeded:_:)``): `needsRun`
  /// is called, on the thread that made the change, when a run is needed and the owner
  /// was not told yet — at the end of the change's batch for a did-set. `willChange`,
  /// if given, is called at every will-set heard, before the value changes.
  /// `changedAgain`, if given, is called for each change that arrives after the owner
  /// was told and before it ran (a debounce restarts its timer).
  package final class OwnerCallbacks: Sendable {
    let willChange: (@Sendable () -> Void)?
    let needsRun: @Sendable () -> Void
    let changedAgain: (@Sendable () -> Void)?

    init(
      willChange: (@Sendable () -> Void)?, needsRun: @escaping @Sendable () -> Void,
      changedAgain: (@Sendable () -> Void)?
    ) {
      self.willChange = willChange
      self.needsRun = needsRun
      self.changedAgain = changedAgain
    }
  }

  let options: TrackingOptions
  /// How runs happen. With an owner, the owner runs the reaction, told through these
  /// callbacks. Without one, the reaction runs its own closure on the closure's
  /// isolation: where the change happens when that is on it and delivery is immediate
  /// (`immediate`), else scheduled there. (Two constants rather than an enum with a
  /// payload: testing them on every change then copies nothing.)
  let owner: OwnerCallbacks?
  private let immediate: Bool
  /// The closure of a reaction without an owner, called on `isolation` only.
  let body: Callable?
  /// The closure's isolation.
  private let isolation: (any Actor)?
  /// Immediate delivery of a nonisolated closure: every change runs it where it
  /// happens (decided once).
  private let runsAnywhere: Bool
  /// Whether runs hand the closure the change (an event); else the change is only kept.
  let bodyTakesChange: Bool
  /// The object an owner-bound observation lives for (see `observe(_:_:)`): when it is
  /// gone, the reaction ends.
  private let boundOwner: WeakReference?
  /// The owner wants to hear of every change while it has not run yet.
  private let hearsEveryChange: Bool
  /// What the latest run started (see "Ownership").
  @exclusivity(unchecked) var owned: [Owned] = []
  // `owner`, `body`, `bodyTakesChange` and `owned` are internal, not private, for the
  // runs in `ReactionRuns.swift`; nothing else uses them.

  /// A reaction whose closure `body` runs on its isolation (continuous observation).
  package init(
    options: TrackingOptions, delivery: ContinuousDelivery, body: Body, site: SourceSite? = nil,
    boundTo owner: WeakReference? = nil
  ) {
    self.options = options
    boundOwner = owner
    hearsEveryChange = false
    self.owner = nil
    immediate = delivery == .immediate
    self.body = body.callable
    isolation = body.isolation
    if case .plain = self.body { bodyTakesChange = false } else { bodyTakesChange = true }
    runsAnywhere = delivery == .immediate && isolation == nil
    // A plain body's change is only kept (`lastEvent`): it needs no object.
    super.init(
      changeNeeds: bodyTakesChange ? .source : .site, hearsWillSet: options.contains(.willSet),
      hearsDidSet: !options.isDisjoint(with: [.willSet, .didSet]), site: site)
  }

  /// A reaction whose runs its owner starts with ``run(ifNeeded:_:)``, after `needsRun`
  /// said so (see ``OwnerCallbacks``).
  package init(
    options: TrackingOptions, willChange: (@Sendable () -> Void)? = nil,
    changedAgain: (@Sendable () -> Void)? = nil, site: SourceSite? = nil,
    needsRun: @escaping @Sendable () -> Void
  ) {
    self.options = options
    owner = OwnerCallbacks(willChange: willChange, needsRun: needsRun, changedAgain: changedAgain)
    immediate = false
    hearsEveryChange = changedAgain != nil
    boundOwner = nil
    body = nil
    isolation = nil
    bodyTakesChange = false
    runsAnywhere = false
    super.init(changeNeeds: .nothing, hearsWillSet: options.contains(.willSet), site: site)
  }

  // MARK: Starting

  /// Makes the first run: now when `immediately` and the caller is on the closure's
  /// isolation, else scheduled there. (Reactions without an owner only.)
  package func start(immediately: Bool) {
    if immediately, isOnItsIsolation {
      let thread = tracking_current_thread()
      let mayRun = state.withLock { state -> Bool in
        guard !state.cancelled else { return false }
        state.runningThread = thread
        state.lastChange = KeptChange(kind: .initial, description: .none)
        return true
      }
      if mayRun { runLoop(RunChange(kind: .initial, source: nil, mustPull: false)) }
    } else {
      state.withLock { state in
        state.pendingChange = KeptChange(kind: .initial, description: .none)
        state.dirty = true
      }
      scheduleRun()
    }
  }

  /// Whether a change starts a run on the thread that made it (immediate delivery, and
  /// that thread is on the closure's isolation). Inlined: most reactions answer from
  /// their two constants, without a call.
  var runsWhereChanged: Bool {
    @inline(__always) get {
      if runsAnywhere { return true }
      guard immediate else { return false }
      return isOnItsIsolation
    }
  }

  private var isOnItsIsolation: Bool {
    guard let actor = isolation else { return true }
    return Isolation.isCurrent(actor)
  }

  // MARK: Changes (on the mutating thread)

  /// An owner that hears will-sets is told at once (and learns of the run the change
  /// needs at its did-set, at the end of its batch).
  override func sourceWillChange(_ change: ChangeDescription) {
    recordCause(.willSet, change)
    // Heard only to read the old value (introspection).
    guard hearsWillSet else { return }
    if let owner, let willChange = owner.willChange {
      let thread = tracking_current_thread()
      if state.withLock({ !$0.cancelled && !Self.isOwnChange($0, thread: thread) }) { willChange() }
      return
    }
    changed(.willSet, { change }, requested: true, atBatchEnd: false)
  }

  /// With `.willSet` only, the did-set is heard too: a run that another thread's
  /// will-set started may read before that thread stores the new value, and the did-set
  /// then asks for the run that reads it (so the final value is never lost); it
  /// coalesces with a run not yet started.
  override func sourceDidChange(_ change: ChangeDescription) -> Bool {
    recordCause(.didSet, change)
    return changed(.didSet, { change }, requested: options.contains(.didSet) || !hearsWillSet, atBatchEnd: true)
  }

  /// The change's only observer, for a change made outside any batch: the run that the
  /// end of a batch opened for the change would start first starts now (in that batch,
  /// which this reaction opens if the caller did not, as the drain would run it).
  override func sourceDidChangeAlone(_ change: ChangeDescription) {
    recordCause(.didSet, change)
    changed(
      .didSet, { change }, requested: options.contains(.didSet) || !hearsWillSet, atBatchEnd: true, alone: true)
  }

  /// A derived value changes when it is recomputed, which this reaction's run will do
  /// (by pulling it) if it must: the change is of the kind the options ask for, and
  /// names the derived value.
  override func computationMayHaveChanged(_ computation: consuming Computation, deferred: Bool) -> Bool {
    computationChanged(computation, deferred: deferred, alone: false)
  }

  /// The only thing a change made outside any batch reaches: the run that the batch
  /// opened for it would start first starts now (see ``sourceDidChangeAlone(_:)``).
  override func computationMayHaveChangedAlone(_ computation: consuming Computation) {
    computationChanged(computation, deferred: false, alone: true)
  }

  /// The description, when it is made, takes the caller's reference to `computation`
  /// (moved in, not retained again); otherwise it is released here.
  @inline(__always) @discardableResult
  private func computationChanged(_ computation: consuming Computation, deferred: Bool, alone: Bool) -> Bool {
    let describes = changeNeeds != .nothing
    if introspects { recordCause(.didSet, .computation(ComputationChange(computation: copy computation))) }
    var owned = Optional(computation)
    return changed(
      options.contains(.didSet) || !hearsWillSet ? .didSet : .willSet,
      { describes ? .computation(ComputationChange(computation: owned.take().unsafelyUnwrapped)) : .none },
      requested: true, atBatchEnd: !deferred, startsHere: !deferred, certain: false, alone: alone)
  }

  /// Apple's public API reports a change only before it happens: the options are served
  /// as for our objects, except that the did-set run is *scheduled* on the closure's
  /// isolation, never started here, where the property still holds its old value.
  override func appleSourceWillChange() {
    if options.contains(.willSet) { changed(.willSet, { .none }, requested: true, atBatchEnd: false) }
    if !options.isDisjoint(with: [.willSet, .didSet]) {
      changed(.didSet, { .none }, requested: options.contains(.didSet), atBatchEnd: false, startsHere: false)
    }
  }

  override func sourceDeallocated() {
    if let boundOwner, boundOwner.object == nil {
      cancel()
      return
    }
    recordCause(.deinit, .none)
    if options.contains(.deinit) { changed(.deinit, { .none }, requested: true, atBatchEnd: false) }
  }

  /// Takes one change. `requested`: of a kind the options asked for (else it asks for a
  /// run, but the run gets the latest requested change). `atBatchEnd`: the run waits
  /// for the end of the change's batch (did-sets). `startsHere`: false for a change that
  /// has not happened yet; its run is scheduled. `certain`: false for a computation's
  /// change, which the run confirms by pulling. `alone`: the batch was opened for this
  /// change, of which this reaction is the only observer, so it does at once what
  /// ``flush()`` would do first when the batch drains.
  ///
  /// `change` makes the change's description, only when it becomes the pending one: a
  /// derived value's is made there (made before and copied in, its computation was
  /// retained and released once more).
  ///
  /// Returns whether the reaction must wait in the batch's queue, which only a change
  /// that waits for its batch's end (`atBatchEnd`, not `alone`) can ask: the caller,
  /// which holds a reference to the reaction, queues it with that reference (see
  /// ``ReactiveNode/sourceDidChange(_:)``).
  @discardableResult
  private func changed(
    _ kind: TrackingEvent.Kind, _ change: () -> ChangeDescription, requested: Bool, atBatchEnd: Bool,
    startsHere: Bool = true, certain: Bool = true, alone: Bool = false
  ) -> Bool {
    let thread = tracking_current_thread()
    let runsHere = startsHere && runsWhereChanged
    let start = state.withLock { state -> RunStart in
      guard !state.cancelled else { return .none }
      if Self.isOwnChange(state, thread: thread) {
        // The computation that passed the change on stays stale until the run's end
        // brings it up to date (see `GraphNode.ignoredOwnMark`).
        if !certain { Graph.withLock { Graph.noteIgnoredOwnMark(graph) } }
        return .none
      }
      state.keepPending({ KeptChange(kind: kind, description: change()) }, requested: requested)
      if !startsHere { state.nextRunIsScheduled = true }
      let wasWaiting = state.isStale
      if certain { state.dirty = true } else { state.pending = true }
      // The change is this thread's batch's, whatever its kind: if the reaction waits
      // in that batch, its drain must run it. (A will-set may come without a did-set:
      // the thread found its hearers before another thread's run dropped the link.)
      state.markChanged(inBatchOf: thread)
      // A run under way or scheduled will see this change; so will the end of this
      // thread's batch if the reaction waits in it. Waiting in another thread's batch
      // is not enough: that batch may stay open (a transaction) long after this change.
      guard state.runningThread == 0, !state.scheduled, !state.isQueued(on: thread) else {
        return hearsEveryChange && state.scheduled ? .changedAgain : .none
      }
      guard !wasWaiting || state.queuedOn != 0 else { return .none }
      if atBatchEnd && !alone {
        state.queuedOn = thread
        return .queue
      }
      if owner != nil {
        state.scheduled = true
        return .tellOwner
      }
      return runsHere && !(alone && state.nextRunIsScheduled)
        ? .now(state.beginRun(on: thread, keepsSource: bodyTakesChange)) : .scheduled
    }
    if case .none = start { return false }
    if case .queue = start { return true }
    if alone { Self.actInBatch(Unmanaged.passUnretained(self), start) } else { act(on: start) }
    return false
  }

  /// ``act(on:)`` for a change delivered alone, outside any batch: what acting on it
  /// starts (a run, the owner's callback) writes into a batch, as it would while one
  /// drains. (`start` is moved into the batch's closure, not copied: a copy of a run's
  /// change goes through its value witnesses.)
  ///
  /// The reaction is passed unretained, as the caller holds it: captured as `self` by
  /// the batch's closure, it was retained and released twice per change.
  @inline(never)
  private static func actInBatch(_ reaction: Unmanaged<Reaction>, _ start: consuming RunStart) {
    var start = Optional(start)
    NotificationBatch.run {
      reaction._withUnsafeGuaranteedRef { $0.act(on: start.take().unsafelyUnwrapped) }
    }
  }

  /// Called when the batch that queued this reaction drains: runs it here, or schedules
  /// it.
  override func flush() {
    let thread = tracking_current_thread()
    let runsHere = runsWhereChanged
    let start = state.withLock { state -> RunStart in
      state.leaveQueue(of: thread)
      guard !state.cancelled, state.isStale, state.changed(inBatchOf: thread), state.runningThread == 0, !state.scheduled
      else { return .none }
      if owner != nil {
        state.scheduled = true
        return .tellOwner
      }
      return runsHere && !state.nextRunIsScheduled
        ? .now(state.beginRun(on: thread, keepsSource: bodyTakesChange)) : .scheduled
    }
    act(on: start)
  }

  @inline(__always)
  private func act(on start: consuming RunStart) {
    // Consumed, as are the run's change and end below: a copy of a run's change goes
    // through its value witnesses.
    switch consume start {
    case .now(let change): runLoop(change)
    case .scheduled: scheduleRun()
    case .queue: NotificationBatch.enqueue(queued: self)
    case .tellOwner: owner?.needsRun()
    case .changedAgain: owner?.changedAgain?()
    case .none: break
    }
  }

  /// Schedules one run on the closure's isolation, unless one is scheduled already.
  /// Kept out of line: inlined into a run's end, the task's creation put a metadata
  /// lookup (for its priority) at the start of every run.
  @inline(never)
  func scheduleRun() {
    let first = state.withLock { state -> Bool in
      guard !state.cancelled, !state.scheduled else { return false }
      state.scheduled = true
      return true
    }
    guard first else { return }
    Task { [weak self] in
      guard let self else { return }
      await self.runScheduled(isolation: self.isolation)
    }
  }

  private func runScheduled(isolation: isolated (any Actor)?) {
    let thread = tracking_current_thread()
    let change = state.withLock { state -> RunChange? in
      state.scheduled = false
      guard !state.cancelled, state.runningThread == 0, state.isStale else { return nil }
      return state.beginRun(on: thread, keepsSource: bodyTakesChange)
    }
    if let change { runLoop(change) }
  }

  // MARK: Ownership

  /// Takes what the closure starts during the run under way (on the running thread).
  override func own(_ owned: Owned) {
    self.owned.append(owned)
  }

  /// Ends what the latest run owns (see "Ownership" for who may call it).
  func endOwned() {
    let ending = owned
    owned = []
    LifetimeOwner.end(ending)
  }

  // MARK: Cancelling

  func finishCancel() {
    let (dropped, endsOwned) = state.withLock { state in
      defer {
        state.dropChanges()
        state.dirty = false
        state.pending = false
        state.ownedEnded = true
      }
      return (dropDependencies(), !state.ownedEnded)
    }
    if endsOwned { endOwned() }
    if !dropped.isEmpty { dropped.perform() }
  }

  @discardableResult
  override package func cancel() -> Bool {
    let first = super.cancel()
    let endsOwned = state.withLock { state -> Bool in
      state.dropChanges()
      // A run under way ends what it owns when it sees the cancellation.
      guard state.runningThread == 0, !state.ownedEnded else { return false }
      state.ownedEnded = true
      return true
    }
    if endsOwned { endOwned() }
    return first
  }

  deinit {
    // Released without a cancellation (an owner-bound observation whose reads were
    // all deallocated): nothing else can reach `owned`.
    if !owned.isEmpty { endOwned() }
  }

  // MARK: Introspection

  /// What the latest run read.
  var dependencies: [TrackingDependency] {
    describedDependencies
  }

  /// The change of the latest run, as an event that cancels this reaction.
  var lastEvent: TrackingEvent? {
    state.withLock { $0.lastChange }.map {
      TrackingEvent(kind: $0.kind, source: $0.description.eventSource, canceller: self)
    }
  }
}
