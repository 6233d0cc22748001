extension Reaction {
  /// The closure a reaction of an `own` schedule runs: with the event, or without it.
  package enum Body: Sendable {
    case event(@isolated(any) @Sendable (TrackingEvent) -> Void)
    case plain(@isolated(any) @Sendable () -> Void)
    /// A nonisolated closure that must only run on `isolation` (for closures the
    /// runtime composes around a user's isolated closure).
    case onIsolation((any Actor)?, @Sendable (TrackingEvent) -> Void)

    var isolation: (any Actor)? {
      switch self {
      case .event(let body): body.isolation
      case .plain(let body): body.isolation
      case .onIsolation(let isolation, _): isolation
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

  /// A ``Body`` seen as nonisolated, made once per reaction: converting an isolated
  /// closure costs an allocation (a reabstraction thunk), which a run must not pay. Only
  /// ever called on the body's isolation.
  enum Callable {
    case event(@Sendable (TrackingEvent) -> Void)
    case plain(@Sendable () -> Void)

    /// Calls the closure; `event` makes the event, for a closure that takes one.
    @inline(__always)
    func call(_ event: () -> TrackingEvent) {
      switch self {
      case .plain(let body): body()
      case .event(let body): body(event())
      }
    }
  }

  /// Starts a reaction that runs `body` (now or soon, then after each change) and
  /// returns the token that keeps it alive: the one entry point of continuous
  /// observation.
  ///
  /// Started inside another owner (a run, a ``TrackingScope``), the token belongs to it:
  /// the owner keeps it alive and cancels it when it ends.
  package static func observe(
    options: TrackingOptions, delivery: ContinuousDelivery, firstRun: FirstRun, body: Body, site: SourceSite? = nil
  ) -> TrackingToken {
    let reaction = Reaction(options: options, delivery: delivery, body: body, site: site)
    let token = TrackingToken(reaction)
    LifetimeOwner.current?.own(.token(token))
    reaction.start(immediately: firstRun == .immediate)
    return token
  }
}
