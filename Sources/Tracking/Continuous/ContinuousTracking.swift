/// How a continuous tracking runs its closure after a change.
public enum ContinuousDelivery: Sendable, Hashable {
  /// Apple's continuous observation: the first change schedules one run on the
  /// closure's isolation, and every change made before that run starts lands in it
  /// (the run receives the latest event). Changes made by code that holds the closure's
  /// actor are therefore one run when that code next suspends.
  case coalesced
  /// Right after each change, synchronously, when the change happens on the
  /// closure's isolation (or the closure has none): the closure runs inside the
  /// change's `willSet` or `didSet`, as the options say. A change made elsewhere is
  /// delivered on the closure's actor as soon as it is free, coalescing the changes
  /// made before then. Within a ``withTransaction(_:)`` (and across a diamond of
  /// derived values) a run happens once, at the end.
  case immediate
}

/// When a continuous tracking makes its first run.
public enum FirstRun: Sendable, Hashable {
  /// As Apple's: scheduled on the closure's isolation, so it runs after the caller
  /// returns (at its next suspension point, when the caller holds that actor).
  case scheduled
  /// Now, before `withContinuousTracking` returns, when the caller is on the
  /// closure's isolation (or it has none); scheduled otherwise.
  case immediate
}

/// Runs `apply` now (or soon), and again after each change of what its latest run
/// read, until the returned token is cancelled or released: the equivalent of Apple's
/// `withContinuousObservation(options:apply:)` (SE-0506), on every OS.
///
/// ```swift
/// token = withContinuousTracking(options: .didSet) { event in
///   label.text = "\(model.count) items"    // event.kind: .initial, then .didSet
/// }
/// ```
///
/// - The first run receives an event of kind ``TrackingEvent/Kind/initial``; later runs
///   receive the latest event that arrived since the previous run (events coalesce).
/// - Each run is tracked afresh, so reads behind conditions are followed. While a run
///   reads the same properties of the same objects as the previous one, in the same
///   order, it keeps its links to them (no allocation per run).
/// - Runs happen on `apply`'s isolation, which it inherits from the caller: main-actor
///   code observes on the main actor. Changes made by `apply` itself do not cause
///   another run.
/// - No change is lost: one made on another thread while a run is reading is noticed,
///   and causes another run.
/// - Cancelling the token (or releasing it, or calling ``TrackingEvent/cancel()`` in
///   `apply`) stops the observation: no run starts after that, and nothing of it stays
///   linked to what it read.
///
/// Beyond Apple's: `delivery: .immediate` runs synchronously with each change (see
/// ``ContinuousDelivery``), `firstRun: .immediate` makes the first run before this
/// function returns, and the token is a `Hashable` class (``TrackingToken``).
///
/// Accepted with the closure labeled `apply:`, as Apple's shipped function spells it,
/// or unlabeled (``withContinuousTracking(options:delivery:firstRun:fileID:line:_:)``); a trailing
/// closure suits both.
///
/// - Parameters:
///   - options: Which events cause a run: `.willSet`, `.didSet`, `.deinit`.
///   - delivery: When runs happen after a change; ``ContinuousDelivery/coalesced`` (Apple's) by default.
///   - firstRun: When the first run happens; ``FirstRun/scheduled`` (Apple's) by default.
///   - fileID: Where the observation is started, for the leak check (filled in for you).
///   - line: The line of the call (filled in for you).
///   - apply: The closure to run, isolated to the caller's actor.
/// - Returns: The token that keeps the observation alive.
public func withContinuousTracking(
  options: TrackingOptions,
  delivery: ContinuousDelivery = .coalesced,
  firstRun: FirstRun = .scheduled,
  fileID: StaticString = #fileID, line: UInt = #line,
  @_inheritActorContext apply: @escaping @isolated(any) @Sendable (TrackingEvent) -> Void
) -> TrackingToken {
  Reaction.observe(
    options: options, delivery: delivery, firstRun: firstRun, body: .event(apply),
    site: SourceSite(fileID: fileID, line: line))
}

/// ``withContinuousTracking(options:delivery:firstRun:fileID:line:apply:)`` with the closure
/// unlabeled: `withContinuousTracking(options: .didSet, { event in … })`.
///
/// (Disfavored only so that a trailing closure, which both accept, picks one of the
/// two; they do the same.)
///
/// - Parameters:
///   - options: Which events cause a run: `.willSet`, `.didSet`, `.deinit`.
///   - delivery: When runs happen after a change; ``ContinuousDelivery/coalesced`` (Apple's) by default.
///   - firstRun: When the first run happens; ``FirstRun/scheduled`` (Apple's) by default.
///   - fileID: Where the observation is started, for the leak check (filled in for you).
///   - line: The line of the call (filled in for you).
///   - apply: The closure to run, isolated to the caller's actor.
/// - Returns: The token that keeps the observation alive.
@_disfavoredOverload
public func withContinuousTracking(
  options: TrackingOptions,
  delivery: ContinuousDelivery = .coalesced,
  firstRun: FirstRun = .scheduled,
  fileID: StaticString = #fileID, line: UInt = #line,
  @_inheritActorContext _ apply: @escaping @isolated(any) @Sendable (TrackingEvent) -> Void
) -> TrackingToken {
  withContinuousTracking(options: options, delivery: delivery, firstRun: firstRun, fileID: fileID, line: line, apply: apply)
}
