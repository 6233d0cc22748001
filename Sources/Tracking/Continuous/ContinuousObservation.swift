import CTrackingSupport

/// The runner behind ``withContinuousTracking(options:delivery:firstRun:_:)`` and
/// everything built on it (`observe`, `observeCoalesced`, `onChange(of:)`).
///
/// **State** (under `state`'s lock): whether it was cancelled; which thread is running
/// `apply` right now (a change reported on that thread while it runs is `apply`'s own
/// write, ignored as Apple's tracking ignores writes inside `apply`); the latest change
/// not yet handled; whether a run is scheduled; the installed observer and what the
/// run that installed it read (by address).
///
/// **Rule**: a change either starts a run now (immediate delivery, on the closure's
/// isolation, when no run is under way), or is left as the pending change for the run
/// under way (which runs again when it ends) or for a scheduled run. So every change
/// that arrives after a run's reads is followed by a run that reads again.
package final class ContinuousObservation: TrackingCancellable, @unchecked Sendable {
  // `@unchecked Sendable`: the mutable state is behind `state`'s lock; the rest is
  // immutable after `init`. Its state types are in ContinuousObservationState.swift.

  /// What the latest run read; see ``TrackingToken/dependencies``.
  var dependencies: [TrackingDependency] {
    state.withLock { $0.reads }.flatMap { type, properties -> [TrackingDependency] in
      var result = properties.identifiers.map {
        TrackingDependency(objectType: type, propertyName: type.trackedPropertyName($0), propertyID: $0)
      }
      if properties.includesAll { result.append(TrackingDependency(objectType: type, propertyName: nil, propertyID: nil)) }
      return result
    }
  }

  /// The event of the latest run.
  var lastEvent: TrackingEvent? {
    state.withLock { $0.lastChange }.map {
      TrackingEvent(kind: $0.kind, source: $0.description.eventSource, canceller: self)
    }
  }

  /// The closure a continuous observation runs: with the event, or without it.
  package enum Body: Sendable {
    case event(@isolated(any) @Sendable (TrackingEvent) -> Void)
    case plain(@isolated(any) @Sendable () -> Void)
    /// A nonisolated closure that must only run on `isolation` (for bodies the runtime
    /// composes around a user's isolated closure).
    case onIsolation((any Actor)?, @Sendable (TrackingEvent) -> Void)

    var isolation: (any Actor)? {
      switch self {
      case .event(let body): body.isolation
      case .plain(let body): body.isolation
      case .onIsolation(let isolation, _): isolation
      }
    }

    /// Calls the body; the caller is on its isolation.
    func callHere(_ event: TrackingEvent) {
      switch self {
      case .event(let body): callOnItsActor(body, event)
      case .plain(let body): callOnItsActor(body, checked: false)
      case .onIsolation(_, let body): body(event)
      }
    }

    /// The body as a nonisolated closure, for calls made on its isolation.
    var callable: Callable {
      switch self {
      case .event(let body): .event(nonisolatedView(of: body))
      case .plain(let body): .plain(nonisolatedView(of: body))
      case .onIsolation(_, let body): .event(body)
      }
    }
  }

  /// A ``Body`` seen as nonisolated, made once per observation: converting an isolated
  /// closure costs an allocation (a reabstraction thunk), which a run must not pay. Only
  /// ever called on the body's isolation.
  enum Callable {
    case event(@Sendable (TrackingEvent) -> Void)
    case plain(@Sendable () -> Void)
  }

  private let options: TrackingOptions
  private let delivery: ContinuousDelivery
  /// The body, called on `isolation` only.
  private let body: Callable
  /// The body's isolation (asked for at every change).
  private let isolation: (any Actor)?
  private let state: Locked<State>
  /// How much of a change this observation's observers need described.
  private let changeNeeds: TrackingObserver.Handler.Needs
  /// Immediate delivery of a nonisolated body: every change runs it where it happens.
  private let runsAnywhere: Bool

  /// Starts an observation and returns the token that keeps it alive.
  package static func start(
    options: TrackingOptions, delivery: ContinuousDelivery, firstRun: FirstRun, body: Body
  ) -> TrackingToken {
    let observation = ContinuousObservation(options: options, delivery: delivery, body: body)
    observation.start(firstRun: firstRun)
    return TrackingToken(observation)
  }

  private init(options: TrackingOptions, delivery: ContinuousDelivery, body: Body) {
    self.options = options
    self.delivery = delivery
    self.body = body.callable
    isolation = body.isolation
    let takesChange: Bool
    if case .plain = self.body { takesChange = false } else { takesChange = true }
    state = Locked(State(bodyTakesChange: takesChange))
    // A plain body's change is only kept (`lastEvent`): it needs no object.
    changeNeeds = takesChange ? .source : .site
    runsAnywhere = delivery == .immediate && isolation == nil
  }

  private func start(firstRun: FirstRun) {
    let change = Change(kind: .initial, source: nil)
    if firstRun == .immediate, isOnItsIsolation {
      run(change)
    } else {
      state.withLock { state in
        state.pending = KeptChange(kind: .initial, description: .none)
        state.needsRun = true
      }
      schedule()
    }
  }

  /// Whether a change starts a run on the thread that made it (immediate delivery, and
  /// that thread is on the body's isolation). Decided once for a nonisolated body.
  private var runsWhereChanged: Bool {
    if runsAnywhere { return true }
    return delivery == .immediate && isOnItsIsolation
  }

  private var isOnItsIsolation: Bool {
    guard let actor = isolation else { return true }
    return Isolation.isCurrent(actor)
  }

  // MARK: Changes (on the mutating thread)

  /// Called by this observation's observer for each change it hears. `requested` is
  /// false for a did-set the options did not ask for (see `makeObserver`): it asks for a
  /// run, but the run receives the latest change of a requested kind.
  ///
  /// `startsHere` is false for a change that has not happened yet (an Apple object's:
  /// see `appleObjectWillChange`): the run it asks for is scheduled, never started on
  /// this thread, nor by a run under way as it ends.
  private func changed(
    _ kind: TrackingEvent.Kind, _ change: ChangeDescription, requested: Bool = true, startsHere: Bool = true
  ) {
    let thread = tracking_current_thread()
    let runsHere = startsHere && runsWhereChanged
    let start = state.withLock { state -> RunStart in
      guard !state.cancelled else { return .none }
      // Its own write, made by the run under way on this thread: ignored.
      if state.runningThread == thread { return .none }
      if requested || state.pending == nil { state.pending = KeptChange(kind: kind, description: change) }
      if !startsHere { state.nextRunIsScheduled = true }
      let wasWaiting = state.needsRun
      state.needsRun = true
      guard !wasWaiting && state.runningThread == nil && !state.scheduled else { return .none }
      // Starting here: the run is marked as under way in the same step.
      return runsHere ? .now(state.beginRun(on: thread)) : .scheduled
    }
    switch start {
    case .now(let change): runLoop(change)
    case .scheduled: schedule()
    case .none: break
    }
  }

  /// Called by this observation's observer when an object it watches is deallocated,
  /// on the deallocating thread, before the object's address can be reused: the
  /// signature is forgotten (it identifies objects by address), so the next run
  /// installs afresh. With the `.deinit` option, the deallocation is also a change.
  private func objectDeallocated() {
    state.withLock { $0.signature = nil }
    if options.contains(.deinit) { changed(.deinit, .none) }
  }

  /// Schedules one run on the closure's isolation, unless one is scheduled already.
  private func schedule() {
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
    state.withLock { $0.scheduled = false }
    runPending()
  }

  /// Runs with the pending change, if one is pending and no run is under way (a
  /// scheduled run). Taking the change and marking the run as under way is one step,
  /// under the lock.
  private func runPending() {
    let thread = tracking_current_thread()
    let change = state.withLock { state -> Change? in
      guard !state.cancelled, state.runningThread == nil, state.needsRun else { return nil }
      return state.beginRun(on: thread)
    }
    if let change { runLoop(change) }
  }

  // MARK: Runs (on the closure's isolation)

  /// A run that is not yet marked as under way (the first one).
  private func run(_ change: Change) {
    let thread = tracking_current_thread()
    let mayRun = state.withLock { state -> Bool in
      guard !state.cancelled else { return false }
      state.runningThread = thread
      state.lastChange = KeptChange(kind: change.kind, description: .none)
      return true
    }
    guard mayRun else { return }
    runLoop(change)
  }

  /// Runs the body for `change`, then again for as long as a change that arrived
  /// meanwhile asks for a run here (each next change is taken as the previous run
  /// ends). The first run is marked as under way on this thread.
  private func runLoop(_ change: Change) {
    var next: Change? = change
    while let change = next { next = runMarked(change) }
  }

  /// Runs the body tracked; the run is marked as under way on this thread. Returns the
  /// change of the next run when it must start now, on this thread.
  private func runMarked(_ change: Change) -> Change? {
    // Isolated from whatever scope is active on this thread (a run may happen inside the
    // did-set of a write made in someone else's `apply`): those reads are this
    // observation's, not that scope's. A plain body is handed over as it is (a closure
    // around it would retain this observation and the body for the call).
    var reads = AccessList()
    if _slowPath(TrackingInterop.observesAppleObservables) {
      // Apple's objects read by the run ask for a run too (`appleObjectWillChange`).
      _ = TrackingInterop.withAppleTracking(
        { collect(into: &reads, change) },
        onChange: { [weak self] in self?.appleObjectWillChange() })
    } else {
      collect(into: &reads, change)
    }
    return watch(reads)
  }

  /// Runs the body, its reads collected into `reads`.
  @inline(__always)
  private func collect(into reads: inout AccessList, _ change: Change) {
    switch body {
    case .plain(let body):
      AccessList.collectIsolated(into: &reads, body)
    case .event(let body):
      // `cancel()` on the event ends this observation, not only the observer that
      // reported the change.
      let event = TrackingEvent(kind: change.kind, source: change.source, canceller: self)
      AccessList.collectIsolated(into: &reads) { body(event) }
    }
  }

  /// An Apple `@Observable` property read by the latest run is about to change (with
  /// ``TrackingInterop/observesAppleObservables`` on), on the mutating thread. Apple's
  /// public API reports nothing after the change, so the options are served as for our
  /// objects (see `makeObserver`) except that the did-set run is *scheduled* on the
  /// body's isolation, never started here, where the property still holds its old value.
  /// A write made on the body's actor has landed by the time that run starts.
  private func appleObjectWillChange() {
    let willSet = options.contains(.willSet)
    let didSet = options.contains(.didSet)
    if willSet { changed(.willSet, .none) }
    if willSet || didSet { changed(.didSet, .none, requested: didSet, startsHere: false) }
  }

  /// Ends a run: keeps the installed observer when the run read the same things as the
  /// previous one, else installs a new one and cancels the previous (and then notes a
  /// change that another thread made while the run was reading). Returns the change of
  /// the next run when it must start now, on this thread.
  ///
  /// A kept observer needs no such check: it stayed installed on everything the run
  /// read, so another thread's change during the run was reported to it, and
  /// `changed` recorded it for the run under way (only this thread's own writes are
  /// ignored). So the run ends in the step that compares, without reading any
  /// object's change epoch (which costs a full fence).
  private func watch(_ reads: AccessList) -> Change? {
    let thread = tracking_current_thread()
    let runsHere = runsWhereChanged
    // The installed observer is named by identity (not retained: only compared).
    let (current, endedKept) = state.withLock { state -> (ObjectIdentifier?, RunEnd?) in
      let current = state.observer.map { ObjectIdentifier($0) }
      guard !state.cancelled, state.observer?.isPending == true, ReadSignature.matches(state.signature, reads) else {
        return (current, nil)
      }
      return (current, state.endRun(changed: false, runsHere: runsHere, thread: thread))
    }
    // Did-set notifications this thread queued for the run's observer during the run
    // come from the run's own writes: dropped (see `NotificationBatch.discard`).
    if let current { NotificationBatch.discard(current) }
    let end = endedKept ?? replaceObserver(reads, runsHere: runsHere, thread: thread)
    switch end {
    case .idle: return nil
    case .next(let change): return change
    case .scheduled: schedule()
    case .cancelled: finishCancel()
    }
    return nil
  }

  /// Ends a run whose reads differ from the previous run's: installs an observer of
  /// them (none when nothing was read), cancels the previous one, then notes a change
  /// that another thread made while the run was reading (after the install: see
  /// ``AccessList/changedElsewhere()``).
  private func replaceObserver(_ reads: AccessList, runsHere: Bool, thread: UInt) -> RunEnd {
    // By address: the observer's deinit handler forgets it when an object goes.
    let signature = reads.addressSignature
    let observer = reads.isEmpty ? nil : makeObserver()
    if let observer { reads.install(observer) }
    let storages = reads.storageHandles
    var typed: [(type: any Trackable.Type, properties: PropertySet)] = []
    reads.forEach { typed.append(($0.type, $0.properties)) }
    let (replaced, previousStorages) = state.withLock { state in
      defer {
        state.observer = observer
        state.signature = signature
        state.storages = storages
        state.reads = typed
      }
      return (state.observer, state.storages)
    }
    // The replaced observer holds this observation (see `makeObserver`): swept out of
    // every object it was on, so that nothing keeps it once this observation is
    // cancelled.
    if let replaced, replaced.cancel() {
      for handle in previousStorages { handle.sweep() }
    }
    let changed = !reads.isEmpty && reads.changedElsewhere()
    return state.withLock { $0.endRun(changed: changed, runsHere: runsHere, thread: thread) }
  }

  /// The observer of one run's reads. With `.willSet` it also takes the did-set: a run
  /// that another thread's willSet started may read before that thread stores the new
  /// value, and the did-set then asks for the run that reads it (so the final value is
  /// never lost); it coalesces with a run not yet started.
  ///
  /// It always hears deallocations (see `objectDeallocated`); only the `.deinit`
  /// option makes them changes.
  ///
  /// **Its handlers hold this observation strongly**, so a change reaches it with no
  /// lock and no retain of its own. The cycle (this observation → its observer →
  /// handlers → this observation) lasts while the observer is installed: an observer
  /// that is replaced or cancelled is swept out of every object it was on at once
  /// (`replaceObserver`, `finishCancel`), after which only a delivery under way on
  /// another thread can still hold it, briefly. So a cancelled observation, and what
  /// its closure captures, are released.
  private func makeObserver() -> TrackingObserver {
    let needs = changeNeeds
    let handler = TrackingObserver.Handler.change(needs) { [self] kind, change in changed(kind, change) }
    let unrequestedDidSet = TrackingObserver.Handler.change(needs) { [self] kind, change in
      changed(kind, change, requested: false)
    }
    let deinitHandler = TrackingObserver.Handler.plain { [self] in objectDeallocated() }
    switch (options.contains(.willSet), options.contains(.didSet)) {
    case (true, false):
      return .make(
        kind: .willSetAndDidSetRepeating, willSet: handler, didSet: unrequestedDidSet, deinit: deinitHandler)
    case (false, true): return .make(kind: .didSetRepeating, willSet: nil, didSet: handler, deinit: deinitHandler)
    case (true, true):
      return .make(kind: .willSetAndDidSetRepeating, willSet: handler, didSet: handler, deinit: deinitHandler)
    case (false, false): return .make(kind: .willSetRepeating, willSet: nil, didSet: nil, deinit: deinitHandler)
    }
  }

  // MARK: Cancelling

  /// Stops the observation: no run starts after this; the installed observer is
  /// cancelled and its entries removed from the objects it watched.
  @discardableResult
  func cancel() -> Bool {
    let first = state.withLock { state -> Bool in
      defer { state.cancelled = true }
      return !state.cancelled
    }
    if first { finishCancel() }
    return first
  }

  private func finishCancel() {
    let (observer, storages) = state.withLock { state in
      defer {
        state.observer = nil
        state.storages = []
        state.reads = []
        state.pending = nil
        // Nothing of a cancelled observation is described any more (`lastEvent`).
        state.lastChange = nil
        state.needsRun = false
      }
      return (state.observer, state.storages)
    }
    guard let observer, observer.cancel() else { return }
    for handle in storages { handle.sweep() }
  }

  deinit {
    state.withLock { $0.observer }?.cancel()
  }
}
