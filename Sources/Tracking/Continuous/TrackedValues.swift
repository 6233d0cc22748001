
/// An asynchronous sequence of the values of a closure, re-evaluated after each
/// transaction that changes what it read.
///
/// This is the equivalent of Apple's `Observations` (SE-0475), on every OS:
///
/// ```swift
/// for await (brightness, contrast) in TrackedValues({ (image.brightness, image.contrast) }) {
///   render(brightness, contrast)
/// }
/// ```
///
/// - The first value is the closure's value when iteration starts.
/// - A *transaction* starts at the first `willSet` of anything the closure read and
///   ends when the mutating code next suspends: the closure is re-run on its own actor,
///   which the mutating code occupies until then. A synchronous burst of mutations
///   therefore arrives as one value, and that value reflects the last mutation.
/// - Each evaluation is tracked afresh, so reads that depend on conditions are followed.
/// - The closure runs isolated to the actor it was created on (usually the one that
///   iterates), so it may read that actor's state synchronously.
/// - Every iterator has its own tracking: several iterators of one sequence each
///   receive every value.
/// - Iteration ends when the iterating task is cancelled, when the closure throws
///   (the error is rethrown), or — with ``untilFinished(_:)`` — when it returns
///   ``Iteration/finish``.
/// - Nothing here keeps the observed objects alive beyond what the closure captures;
///   dropping the iterator cancels its pending tracking.
/// - Made inside a ``TrackingScope``'s `run` (or an observation's run), the sequence
///   belongs to that owner: when it ends, every iteration of the sequence ends (`next()`
///   returns `nil`), and iterations started later end at once.
public struct TrackedValues<Element: Sendable, Failure: Error>: AsyncSequence, Sendable {
  /// What an ``untilFinished(_:)`` closure returns: a value, or the end.
  public enum Iteration: Sendable {
    case next(Element)
    case finish
  }

  @usableFromInline
  enum Producer: Sendable {
    case element(@isolated(any) @Sendable () throws(Failure) -> Element)
    case iteration(@isolated(any) @Sendable () throws(Failure) -> Iteration)

    @inlinable
    var isolation: (any Actor)? {
      switch self {
      case .element(let body): body.isolation
      case .iteration(let body): body.isolation
      }
    }
  }

  @usableFromInline let producer: Producer
  /// Made inside an owner: owns the sequence's iterations, and ends with that owner
  /// (iterations start later, on other threads, where the owner is not current).
  @usableFromInline let lifetime: ScopeOwnership?

  /// A sequence of the values of `emit`, which runs isolated to the caller's actor.
  public init(
    @_inheritActorContext _ emit: @escaping @isolated(any) @Sendable () throws(Failure) -> Element
  ) {
    self.init(producer: .element(emit))
  }

  /// A sequence that ends when `emit` returns ``Iteration/finish``.
  public static func untilFinished(
    @_inheritActorContext _ emit: @escaping @isolated(any) @Sendable () throws(Failure) -> Iteration
  ) -> Self {
    Self(producer: .iteration(emit))
  }

  init(producer: Producer) {
    self.producer = producer
    if LifetimeOwner.current != nil {
      let lifetime = ScopeOwnership()
      lifetime.beOwnedByTheCurrentOwner()
      self.lifetime = lifetime
    } else {
      lifetime = nil
    }
  }

  public func makeAsyncIterator() -> Iterator {
    Iterator(producer: producer, lifetime: lifetime)
  }

  /// Iterates a ``TrackedValues`` sequence. Each iterator tracks independently.
  ///
  /// `next` is inlinable so that it is specialized for the element type where the
  /// sequence is iterated: unspecialized, every value would pay for run-time generic
  /// metadata lookups (about a tenth of a value's cost).
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let producer: Producer
    @usableFromInline var signal: RunSignal? = RunSignal()
    @usableFromInline var started = false

    init(producer: Producer, lifetime: ScopeOwnership?) {
      self.producer = producer
      if let lifetime, let signal {
        lifetime.own(Owned(end: { [weak signal] in signal?.cancel() }, hasEnded: { [weak signal] in signal == nil }))
      }
    }

    @inlinable
    public mutating func next(
      isolation actor: isolated (any Actor)? = #isolation
    ) async throws(Failure) -> Element? {
      guard let signal else { return nil }
      while true {
        if started {
          // Waits on the caller's actor: no hop to the generic executor and back. Written
          // here rather than in a function of the signal: each async function called is
          // one more frame allocated from the task and one more executor check per value.
          // `false` once the task is cancelled (the handler cancels the signal).
          let changed = await withTaskCancellationHandler {
            await withUnsafeContinuation(isolation: actor) { signal.park($0) }
          } onCancel: {
            signal.cancel()
          }
          guard changed else { return finish() }
        } else {
          guard !Task.isCancelled else { return finish() }
        }
        let first = !started
        started = true
        do {
          let iteration: Iteration?
          if producer.isolation === actor {
            // Already on the closure's actor (the common case: the sequence is made and
            // iterated on the same actor): evaluate without a suspension point.
            iteration = try Self.evaluateHere(producer, signal, first: first)
          } else {
            iteration = try await Self.evaluate(isolation: producer.isolation, producer, signal, first: first)
          }
          switch iteration {
          case .next(let element): return element
          case .finish: return finish()
          // Woken, but nothing it read changed value (a derived value it read
          // recomputed to an equal value): wait again.
          case nil: continue
          }
        } catch {
          _ = finish()
          throw error
        }
      }
    }

    @inlinable
    mutating func finish() -> Element? {
      signal?.cancel()
      signal = nil
      return nil
    }

    /// Hops to the producer's actor and evaluates it there.
    @inlinable
    static func evaluate(
      isolation actor: isolated (any Actor)?, _ producer: Producer, _ signal: RunSignal, first: Bool
    ) throws(Failure) -> Iteration? {
      try evaluateHere(producer, signal, first: first)
    }

    /// Runs the producer as the run of the iterator's reaction, on the producer's actor:
    /// tracked, keeping its links while the closure reads the same properties, and
    /// ignoring the closure's own writes (as Apple's tracking does).
    /// Returns `nil` when the run was not needed after all.
    @inlinable
    static func evaluateHere(_ producer: Producer, _ signal: RunSignal, first: Bool) throws(Failure) -> Iteration? {
      var outcome: Result<Iteration, Failure>?
      signal.run(always: first) {
        do throws(Failure) {
          switch producer {
          case .element(let body): outcome = .success(.next(try callOnItsActor(body, checked: false)))
          case .iteration(let body): outcome = .success(try callOnItsActor(body, checked: false))
          }
        } catch {
          outcome = .failure(error)
        }
      }
      return try outcome?.get()
    }
  }
}

/// The meeting point between an iterator's reaction, which hears changes on the
/// mutating threads, and the task that waits for the next one.
///
/// A change either wakes the waiting task or, when nobody waits yet, is remembered
/// (`pending`), so a change that lands between two `next()` calls is never lost and a
/// burst of changes is one wake-up. Cancelling wakes the waiter for good and cancels
/// the reaction, which drops its links at once.
///
/// `@unchecked Sendable`: its mutable state is behind `state`'s lock.
@usableFromInline
final class RunSignal: @unchecked Sendable {
  private struct State {
    var pending = false
    var cancelled = false
    var waiter: UnsafeContinuation<Bool, Never>?
  }

  private let state: Locked<State>
  /// The reaction whose runs evaluate the iterator's closure. It hears will-sets (a
  /// transaction starts at the first one) and did-sets (so the final value is never
  /// lost). Internal for the tests that look at its state.
  let reaction: Reaction

  @usableFromInline
  init() {
    // The reaction holds the state, not the signal (which owns the reaction): no weak
    // reference to load at every change.
    let state = Locked(State())
    self.state = state
    reaction = Reaction(options: [.willSet, .didSet]) { Self.signal(state) }
  }

  /// Called when the reaction needs a run, on the mutating thread.
  private static func signal(_ state: Locked<State>) {
    let waiter = state.withLock { state -> UnsafeContinuation<Bool, Never>? in
      guard let waiter = state.waiter else {
        state.pending = true
        return nil
      }
      state.waiter = nil
      return waiter
    }
    waiter?.resume(returning: true)
  }

  /// Parks the continuation of a task that waits for the next change, or resumes it at
  /// once if a change is pending (`true`) or the signal was cancelled (`false`). Called
  /// on the waiting task's actor, inside its cancellation handler.
  @usableFromInline
  func park(_ continuation: UnsafeContinuation<Bool, Never>) {
    let resumeNow = state.withLock { state -> Bool? in
      if state.cancelled { return false }
      if state.pending {
        state.pending = false
        return true
      }
      state.waiter = continuation
      return nil
    }
    if let resumeNow { continuation.resume(returning: resumeNow) }
  }

  /// Runs `body` as the reaction's run (always, for the first value; else only if a
  /// change asks for it) and returns whether it ran. Forgets the wake-ups signalled so
  /// far: the rest of the burst that woke this run is visible to its reads.
  @usableFromInline @discardableResult
  func run(always: Bool, _ body: () -> Void) -> Bool {
    state.withLock { $0.pending = false }
    return reaction.run(ifNeeded: !always, body)
  }

  /// Whether a task waits for the next change (for the tests: a waiter parked while the
  /// reaction says its owner was told is a wake-up lost).
  var hasWaiter: Bool { state.withLock { $0.waiter != nil } }

  /// Ends the signal: wakes a waiter and cancels the reaction.
  @usableFromInline
  func cancel() {
    let waiter = state.withLock { state in
      state.cancelled = true
      defer { state.waiter = nil }
      return state.waiter
    }
    reaction.cancel()
    waiter?.resume(returning: false)
  }

  deinit {
    // Nobody can wait any more; drop the reaction's links now rather than when its
    // property next changes.
    reaction.cancel()
  }
}
