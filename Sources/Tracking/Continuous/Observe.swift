/// Runs `body` now, and again right after every change of what its latest run read,
/// until the returned token is cancelled or released.
///
/// ```swift
/// token = observe { label.text = "\(model.count) items" }
/// ```
///
/// - Each run is tracked afresh, so reads behind conditions are followed. Changes made
///   by `body` itself do not re-run it.
/// - `body` is isolated to the caller's actor, so main-actor code may touch main-actor
///   state in it. It re-runs synchronously, in the changed property's `didSet` (the new
///   value is in place), when the change happens on that actor (or `body` is
///   nonisolated); a change made elsewhere re-runs it on its actor as soon as the actor
///   is free, coalescing the changes made before then.
/// - Once per change, and once per ``withTransaction(_:)``, however many of the
///   properties it read changed and however many derived values lead to them.
/// - No change is lost, including one made on another thread while `body` was reading.
///
/// - Started inside another observation's run or a ``TrackingScope``'s `run`, it
///   belongs to that owner, which keeps it alive and ends it (see the *Lifetimes*
///   article); `_ = observe { … }` is then enough.
///
/// This is ``withContinuousTracking(options:delivery:firstRun:fileID:line:_:)`` with `.didSet`,
/// immediate delivery and an immediate first run. See ``TrackingToken`` for the
/// lifetime rule.
///
/// - Parameters:
///   - fileID: Where the observation is started, for the leak check (filled in for you).
///   - line: The line of the call (filled in for you).
///   - body: The closure to run, isolated to the caller's actor.
public func observe(
  fileID: StaticString = #fileID, line: UInt = #line,
  @_inheritActorContext _ body: @escaping @isolated(any) @Sendable () -> Void
) -> TrackingToken {
  Reaction.observe(
    options: .didSet, delivery: .immediate, firstRun: .immediate, body: .plain(body),
    site: SourceSite(fileID: fileID, line: line))
}

/// Runs `body` now, and again on its actor after changes of what its latest run read,
/// coalescing all the changes made before the actor gets to run it.
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
///
/// This is ``withContinuousTracking(options:delivery:firstRun:fileID:line:_:)`` with `.willSet`,
/// coalesced delivery (Apple's) and an immediate first run.
///
/// - Parameters:
///   - fileID: Where the observation is started, for the leak check (filled in for you).
///   - line: The line of the call (filled in for you).
///   - body: The closure to run, isolated to the caller's actor.
public func observeCoalesced(
  fileID: StaticString = #fileID, line: UInt = #line,
  @_inheritActorContext _ body: @escaping @isolated(any) @Sendable () -> Void
) -> TrackingToken {
  Reaction.observe(
    options: .willSet, delivery: .coalesced, firstRun: .immediate, body: .plain(body),
    site: SourceSite(fileID: fileID, line: line))
}
