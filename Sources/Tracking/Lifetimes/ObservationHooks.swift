extension Trackable {
  /// Calls `observed` when a property gains its first observer, and `unobserved` when it
  /// loses its last, until the returned token is cancelled or released: TC39 signals'
  /// `watched`/`unwatched`, MobX's `onBecomeObserved`/`onBecomeUnobserved`.
  ///
  /// The use: start work that only matters while someone looks, and stop it after.
  ///
  /// ```swift
  /// @Trackable final class Ticker {
  ///   var price = 0.0
  ///   private var hooks: TrackingToken?
  ///   private var feed: FeedSubscription?
  ///
  ///   init(feed source: PriceFeed) {
  ///     hooks = onObservation(of: \.price) { [weak self] in
  ///       self?.feed = source.subscribe { price in self?.price = price }
  ///     } unobserved: { [weak self] in
  ///       self?.feed = nil
  ///     }
  ///   }
  /// }
  /// ```
  ///
  /// - **Observer** means anything of this library that would hear a change of the
  ///   property: a continuous observation, a derived value, a ``TrackedValues``
  ///   iteration, a one-shot tracking (`TrackedView`'s included). A SwiftUI view that
  ///   tracks the object through Apple's registrar (the relay, iOS 17 and later) is
  ///   Apple's observer, not ours, and is not counted.
  /// - **When.** `observed` runs right after the first observer is installed, on the
  ///   thread that installed it (usually inside the observer's first run);
  ///   `unobserved` when the last one is removed: when it is cancelled, or — for a
  ///   one-shot tracking that fired — at the next write or sweep of the object, so that
  ///   a view that tracks again after each change does not flap between the two.
  /// - **Order.** The calls alternate, starting with `observed`, and never overlap;
  ///   if the property is observed when you register, `observed` runs at once. Cancelling
  ///   the token while the property is observed calls `unobserved`, so what `observed`
  ///   started is always stopped. If an observation is cancelled on one thread while
  ///   a write re-runs it on another, that run may read the property again: `observed`
  ///   is then called once more, and `unobserved` when the run ends. Transitions made
  ///   on two threads at once are counted as each thread reports them, after leaving
  ///   the library's locks: a brief `unobserved` then `observed` (or the reverse) may
  ///   then be merged away, but the last call always matches the property's state
  ///   once the threads are done.
  /// - The hooks run synchronously, outside every lock of the library, and are
  ///   nonisolated: hop to an actor yourself if the work needs one. They may read and
  ///   write tracked properties (a write does not count as observing). They run outside
  ///   every tracking scope: what they read is not recorded by the run that observed
  ///   the property.
  /// - A key path through a computed property hooks every tracked property its getter
  ///   reads: observed when the first of them is.
  ///
  /// - Parameters:
  ///   - keyPath: The property. It is read once, now, to find out which tracked
  ///     properties it is made of.
  ///   - observed: Called when the property gains its first observer.
  ///   - unobserved: Called when it loses its last.
  /// - Returns: The token that keeps the hooks installed.
  public func onObservation<Member>(
    of keyPath: KeyPath<Self, Member>,
    observed: @escaping @Sendable () -> Void,
    unobserved: @escaping @Sendable () -> Void
  ) -> TrackingToken {
    var reads = AccessList()
    _ = AccessList.collectIsolated(into: &reads) { self[keyPath: keyPath] }
    var properties: [(RegistrarStorage, Int)] = []
    reads.forEachStorage { storage, set in
      for id in set.identifiers { properties.append((storage, id)) }
    }
    return ObservationHook.attach(to: properties, observed: observed, unobserved: unobserved)
  }
}

extension Derived {
  /// Calls `observed` when this value gains its first observer, and `unobserved` when
  /// it loses its last (``Trackable/onObservation(of:observed:unobserved:)`` for
  /// ``value``, without computing it).
  ///
  /// - Parameters:
  ///   - observed: Called when the value gains its first observer.
  ///   - unobserved: Called when it loses its last.
  /// - Returns: The token that keeps the hooks installed.
  public func onObservation(
    observed: @escaping @Sendable () -> Void, unobserved: @escaping @Sendable () -> Void
  ) -> TrackingToken {
    // The nodes that read the value are its subscribers in the graph, not in its
    // registrar.
    node.countReadersForHooks()
    return ObservationHook.attach(to: [(node.registrar.storage, 0)], observed: observed, unobserved: unobserved)
  }
}

/// One `onObservation` registration: counts how many of its properties are observed,
/// and calls its hooks when that count leaves or reaches zero, one call at a time, in
/// the order the changes were seen.
final class ObservationHook: @unchecked Sendable {
  // `@unchecked Sendable`: `state` is behind its lock; the closures are immutable.
  private struct State {
    var observedCount = 0
    var cancelled = false
    /// Calls waiting to be made (`true`: observed), and whether a thread makes them.
    var queue: [Bool] = []
    var draining = false
  }

  private let observed: @Sendable () -> Void
  private let unobserved: @Sendable () -> Void
  private let state = Locked(State())

  private init(observed: @escaping @Sendable () -> Void, unobserved: @escaping @Sendable () -> Void) {
    self.observed = observed
    self.unobserved = unobserved
  }

  /// Hooks `properties` (storage and property number) and returns the token that
  /// removes the hooks; the current owner, if any, owns it.
  static func attach(
    to properties: [(RegistrarStorage, Int)], observed: @escaping @Sendable () -> Void,
    unobserved: @escaping @Sendable () -> Void
  ) -> TrackingToken {
    let hook = ObservationHook(observed: observed, unobserved: unobserved)
    let handles = properties.map { $0.0.handle }
    for (storage, id) in properties { storage.addHook(hook, for: id) }
    let token = TrackingToken {
      for handle in handles { handle.withStorage { $0.removeHook(hook) } }
      hook.cancel()
    }
    LifetimeOwner.current?.own(.token(token))
    return token
  }

  /// One of the properties became observed (or unobserved), as its storage saw it.
  func deliver(_ isObserved: Bool) {
    let drains = state.withLock { state -> Bool in
      guard !state.cancelled else { return false }
      let before = state.observedCount
      state.observedCount += isObserved ? 1 : -1
      if before == 0 && state.observedCount == 1 { state.queue.append(true) }
      if before == 1 && state.observedCount == 0 { state.queue.append(false) }
      return takeDrain(&state)
    }
    if drains { drain() }
  }

  /// No more calls; `unobserved` if the last call was `observed`.
  private func cancel() {
    let drains = state.withLock { state -> Bool in
      guard !state.cancelled else { return false }
      state.cancelled = true
      if state.observedCount > 0 { state.queue.append(false) }
      return takeDrain(&state)
    }
    if drains { drain() }
  }

  private func takeDrain(_ state: inout State) -> Bool {
    guard !state.queue.isEmpty, !state.draining else { return false }
    state.draining = true
    return true
  }

  /// Makes the waiting calls, outside the lock; calls queued meanwhile (also by the
  /// hooks themselves) are made by this loop.
  private func drain() {
    while true {
      let next = state.withLock { state -> Bool? in
        guard !state.queue.isEmpty else {
          state.draining = false
          return nil
        }
        return state.queue.removeFirst()
      }
      guard let next else { return }
      // Outside every tracking scope: the first observer's run is usually under way,
      // and what a hook reads is not that run's.
      AccessList.withoutTracking { if next { observed() } else { unobserved() } }
    }
  }
}
