/// Runs `body` now, and again after changes of what its latest run read, at the moments
/// `timing` chooses, until the returned token is cancelled or released.
///
/// ```swift
/// token = observe(timing: .debounce(for: .milliseconds(300), clock: ContinuousClock())) {
///   try search.run(query: model.query)
/// }
/// ```
///
/// - The first run happens now when the caller is on `body`'s isolation (else it is
///   scheduled there); the timing applies to the re-runs.
/// - Changes that arrive before a re-run are part of it; the last change is never lost.
/// - A thrown error goes to `onError` (by default a warning on standard error), and the
///   observation goes on: what the run read before throwing is tracked.
/// - Started inside a run or a ``TrackingScope``, it belongs to that owner.
///
/// - Parameters:
///   - timing: When re-runs happen (see ``ObservationTiming``).
///   - onError: Receives what `body` throws.
///   - fileID: Where the observation is started, for the leak check (filled in for you).
///   - line: The line of the call (filled in for you).
///   - body: The closure to run, isolated to the caller's actor.
/// - Returns: The token that keeps the observation alive.
public func observe(
  timing: ObservationTiming,
  onError: @escaping @Sendable (any Error) -> Void = reportObservationError,
  fileID: StaticString = #fileID, line: UInt = #line,
  @_inheritActorContext _ body: @escaping @isolated(any) @Sendable () throws -> Void
) -> TrackingToken {
  let site = SourceSite(fileID: fileID, line: line)
  let call: @Sendable () -> Void = {
    do { try callOnItsActor(body, checked: false) } catch { onError(error) }
  }
  guard let scheduler = timing.makeScheduler() else {
    return Reaction.observe(
      options: .didSet, delivery: .immediate, firstRun: .immediate, body: .onIsolation(body.isolation) { _ in call() },
      site: site)
  }
  return TimedRuns.start(scheduler: scheduler, isolation: body.isolation, call: call, site: site)
}

/// ``observe(timing:onError:fileID:line:_:)`` with immediate re-runs, for a body that
/// throws: the error goes to `onError`, and the observation goes on.
///
/// - Parameters:
///   - onError: Receives what `body` throws.
///   - fileID: Where the observation is started, for the leak check (filled in for you).
///   - line: The line of the call (filled in for you).
///   - body: The closure to run, isolated to the caller's actor.
/// - Returns: The token that keeps the observation alive.
public func observe(
  onError: @escaping @Sendable (any Error) -> Void,
  fileID: StaticString = #fileID, line: UInt = #line,
  @_inheritActorContext _ body: @escaping @isolated(any) @Sendable () throws -> Void
) -> TrackingToken {
  observe(timing: .immediate, onError: onError, fileID: fileID, line: line, body)
}

/// What a throwing observation does with an error when it is given no handler: prints
/// a warning to standard error, and the observation goes on.
///
/// - Parameter error: The error the observation's body threw.
@Sendable public func reportObservationError(_ error: any Error) {
  writeToStandardError("warning: an observation's body threw \(error); it keeps observing\n")
}

/// The runs of an observation with a timing: a reaction whose owner is the timing's
/// scheduler, which decides when each needed run happens.
private final class TimedRuns: @unchecked Sendable {
  // `@unchecked Sendable`: `reaction` is written once, before anything can call `run`.
  private let isolation: (any Actor)?
  private let call: @Sendable () -> Void
  private weak var reaction: Reaction?

  private init(isolation: (any Actor)?, call: @escaping @Sendable () -> Void) {
    self.isolation = isolation
    self.call = call
  }

  static func start(
    scheduler: any RunScheduler, isolation: (any Actor)?, call: @escaping @Sendable () -> Void, site: SourceSite
  ) -> TrackingToken {
    let runs = TimedRuns(isolation: isolation, call: call)
    let reaction = Reaction(options: .didSet, changedAgain: { scheduler.changedAgain() }, site: site) {
      scheduler.needsRun { [weak runs] in runs?.run(ifNeeded: true) }
    }
    runs.reaction = reaction
    let token = TrackingToken(reaction, alsoOnCancel: { scheduler.cancel() })
    LifetimeOwner.current?.own(.token(token))
    runs.run(ifNeeded: false)
    return token
  }

  /// Runs the body on its isolation as the reaction's run (if a change still asks for
  /// one, unless it is the first run).
  private func run(ifNeeded: Bool) {
    Isolation.perform(on: isolation) { [self] in
      reaction?.run(ifNeeded: ifNeeded) { call() }
    }
  }
}
