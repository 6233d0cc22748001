import Tracking

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

/// Runs `body` now on `actor`, and again on `actor` after changes of what its last run
/// read, coalescing all the changes made before the actor gets to run it.
///
/// A change schedules one re-run; further changes before that re-run starts are
/// covered by it. Typical use is UI state observed on the main actor:
///
/// ```swift
/// let token = observe(coalescingOn: MainActor.shared) { _ in
///   titleLabel.text = model.title
/// }
/// ```
public func observe<A: Actor>(
  coalescingOn actor: isolated A,
  _ body: @escaping @Sendable (isolated A) -> Void
) -> ObservationToken {
  let observation = CoalescedObservation(actor: actor, body)
  observation.run(on: actor)
  return ObservationToken { observation.stop() }
}

/// The state shared by a callback observation's runs: the latest installed observer,
/// and whether it was stopped.
final class ObservationRuns: @unchecked Sendable {
  private struct State {
    var observer: TrackingObserver?
    var stopped = false
  }
  private let state = Locked.make(State())

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

  init(_ body: @escaping @Sendable () -> Void) {
    self.body = body
  }

  func run() {
    guard !runs.isStopped else { return }
    let rerun = TrackingObserver.Handler.plain { [weak self] in self?.run() }
    let (_, observer) = track(body, kind: .didSetOnce) { (nil, rerun) }
    runs.installed(observer)
  }

  func stop() { runs.stop() }
}

final class CoalescedObservation<A: Actor>: @unchecked Sendable {
  private let actor: A
  private let body: @Sendable (isolated A) -> Void
  private let runs = ObservationRuns()

  init(actor: A, _ body: @escaping @Sendable (isolated A) -> Void) {
    self.actor = actor
    self.body = body
  }

  func run(on actor: isolated A) {
    guard !runs.isStopped else { return }
    let schedule = TrackingObserver.Handler.plain { [weak self] in self?.scheduleRun() }
    let (_, observer) = track({ body(actor) }, kind: .willSetOnce) { (schedule, nil) }
    runs.installed(observer)
  }

  /// Called in the `willSet` of the first change; the run waits for the actor, which
  /// the mutating code holds until it suspends, so the whole burst lands in one run.
  private func scheduleRun() {
    Task { [weak self, actor] in
      guard let self else { return }
      await Self.runIsolated(self, on: actor)
    }
  }

  private static func runIsolated(_ observation: CoalescedObservation, on actor: isolated A) {
    observation.run(on: actor)
  }

  func stop() { runs.stop() }
}
