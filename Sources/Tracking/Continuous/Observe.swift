
/// Runs `body` now, and again right after every change of what its last run read,
/// until the returned token is cancelled or released.
///
/// Each run is tracked afresh, so reads behind conditions are followed. Re-runs happen
/// synchronously on the mutating thread, in the property's `didSet` (the new value is
/// in place). Changes made by `body` itself do not re-run it.
///
/// ```swift
/// let token = observe { label.text = "\(model.count) items" }
/// ```
///
/// See ``ObservationToken`` for the lifetime rule.
public func observe(_ body: @escaping @Sendable () -> Void) -> ObservationToken {
  let observation = SynchronousObservation(body)
  observation.run()
  return ObservationToken { observation.stop() }
}

/// Runs `body` on its actor now, and again on that actor after changes of what its
/// last run read, coalescing all the changes made before the actor gets to run it.
///
/// `body` is isolated to the caller's actor (for example the main actor), so it may
/// touch that actor's state. The first change schedules one re-run; the re-run waits
/// for the actor, which the mutating code holds until it suspends, so a whole burst
/// of changes lands in that one run.
///
/// ```swift
/// @MainActor func bind() {
///   token = observeCoalesced { titleLabel.text = model.title }
/// }
/// ```
public func observeCoalesced(
  isolation: isolated (any Actor)? = #isolation,
  @_inheritActorContext _ body: @escaping @isolated(any) @Sendable () -> Void
) -> ObservationToken {
  let observation = CoalescedObservation(body)
  if body.isolation === isolation {
    observation.run(isolation: isolation)
  } else {
    observation.scheduleRun()
  }
  return ObservationToken { observation.stop() }
}

/// The state shared by a callback observation's runs: the latest installed observer,
/// and whether it was stopped.
final class ObservationRuns: @unchecked Sendable {
  private struct State {
    var observer: TrackingObserver?
    var stopped = false
  }
  private let state = Locked(State())

  var isStopped: Bool { state.withLock { $0.stopped } }

  /// Records the observer installed by the latest run (cancelling it at once if the
  /// observation was stopped meanwhile).
  func installed(_ observer: TrackingObserver?) {
    let stopped = state.withLock { state -> Bool in
      if !state.stopped { state.observer = observer }
      return state.stopped
    }
    if stopped { observer?.cancel() }
  }

  func stop() {
    let observer = state.withLock { state -> TrackingObserver? in
      state.stopped = true
      defer { state.observer = nil }
      return state.observer
    }
    observer?.cancel()
  }
}

final class SynchronousObservation: @unchecked Sendable {
  private let body: @Sendable () -> Void
  private let runs = ObservationRuns()
  /// What each run's observer calls: the next run. Made once, in `init`.
  @exclusivity(unchecked) private var rerun = TrackingObserver.Handler.plain {}

  init(_ body: @escaping @Sendable () -> Void) {
    self.body = body
    rerun = .plain { [weak self] in self?.run() }
  }

  func run() {
    guard !runs.isStopped else { return }
    let (_, observer) = track(body, kind: .didSetOnce) { (nil, rerun) }
    runs.installed(observer)
  }

  func stop() { runs.stop() }
}

final class CoalescedObservation: @unchecked Sendable {
  private let body: @isolated(any) @Sendable () -> Void
  private let runs = ObservationRuns()

  /// What each run's observer calls: schedules the next run. Made once, in `init`.
  @exclusivity(unchecked) private var schedule = TrackingObserver.Handler.plain {}

  init(_ body: @escaping @isolated(any) @Sendable () -> Void) {
    self.body = body
    schedule = .plain { [weak self] in self?.scheduleRun() }
  }

  /// Runs the body tracked; must be called on the body's actor.
  func run(isolation: isolated (any Actor)?) {
    guard !runs.isStopped else { return }
    let (_, observer) = trackIsolated(
      isolation: isolation, body, kind: .willSetOnce, willSet: schedule, didSet: nil)
    runs.installed(observer)
  }

  /// Called in the `willSet` of the first change of a burst: one run, on the body's actor.
  func scheduleRun() {
    Task { [weak self] in
      guard let self else { return }
      await self.run(isolation: self.body.isolation)
    }
  }

  func stop() { runs.stop() }
}
