
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

  /// A sequence of the values of `emit`, which runs isolated to the caller's actor.
  public init(
    @_inheritActorContext _ emit: @escaping @isolated(any) @Sendable () throws(Failure) -> Element
  ) {
    producer = .element(emit)
  }

  /// A sequence that ends when `emit` returns ``Iteration/finish``.
  public static func untilFinished(
    @_inheritActorContext _ emit: @escaping @isolated(any) @Sendable () throws(Failure) -> Iteration
  ) -> Self {
    Self(producer: .iteration(emit))
  }

  init(producer: Producer) {
    self.producer = producer
  }

  public func makeAsyncIterator() -> Iterator {
    Iterator(producer: producer)
  }

  /// Iterates a ``TrackedValues`` sequence. Each iterator tracks independently.
  ///
  /// `next` is inlinable so that it is specialized for the element type where the
  /// sequence is iterated: unspecialized, every value would pay for run-time generic
  /// metadata lookups (about a tenth of a value's cost).
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let producer: Producer
    @usableFromInline var signal: ChangeSignal? = ChangeSignal()
    @usableFromInline var started = false

    init(producer: Producer) {
      self.producer = producer
    }

    @inlinable
    public mutating func next(
      isolation actor: isolated (any Actor)? = #isolation
    ) async throws(Failure) -> Element? {
      guard let signal else { return nil }
      if started {
        // Waits on the caller's actor: no hop to the generic executor and back.
        // Returns false once the task is cancelled (its cancellation handler cancels
        // the signal).
        guard await signal.wait(isolation: actor) else { return finish() }
      } else {
        guard !Task.isCancelled else { return finish() }
        started = true
      }
      do {
        let iteration: Iteration
        if producer.isolation === actor {
          // Already on the closure's actor (the common case: the sequence is made and
          // iterated on the same actor): evaluate without a suspension point.
          iteration = try Self.evaluateHere(producer, signal)
        } else {
          iteration = try await Self.evaluate(isolation: producer.isolation, producer, signal)
        }
        switch iteration {
        case .next(let element): return element
        case .finish: return finish()
        }
      } catch {
        _ = finish()
        throw error
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
      isolation actor: isolated (any Actor)?, _ producer: Producer, _ signal: ChangeSignal
    ) throws(Failure) -> Iteration {
      try evaluateHere(producer, signal)
    }

    /// Runs the producer inside a tracking scope and makes sure an observer signals at
    /// the next `willSet` of anything it read. The caller is on the producer's actor.
    ///
    /// The observer repeats, and is kept from round to round while the closure reads
    /// the same properties (see `ChangeSignal.watch`): a value then costs no
    /// allocation and no install. Pending changes are cleared just before the read, so
    /// the rest of a burst does not cause a second value, and changes during the round
    /// are ignored, so the closure's own writes do not cause one either (as with
    /// Apple's tracking, which installs after `apply`).
    @inlinable
    static func evaluateHere(_ producer: Producer, _ signal: ChangeSignal) throws(Failure) -> Iteration {
      if _slowPath(TrackingInterop.observesAppleObservables) {
        return try evaluateOnce(producer, signal)
      }
      signal.beginRound()
      let (iteration, reads) = try AccessList.collect { () throws(Failure) -> Iteration in
        switch producer {
        case .element(let body): return .next(try callOnItsActor(body, checked: false))
        case .iteration(let body): return try callOnItsActor(body, checked: false)
        }
      }
      signal.watch(reads)
      return iteration
    }

    /// With Apple's objects observed too (interop), whose tracking is one-shot: one
    /// observer per round, installed by `track`.
    @usableFromInline
    static func evaluateOnce(_ producer: Producer, _ signal: ChangeSignal) throws(Failure) -> Iteration {
      let (iteration, observer) = try track(
        { () throws(Failure) -> Iteration in
          switch producer {
          case .element(let body): return .next(try callOnItsActor(body, checked: false))
          case .iteration(let body): return try callOnItsActor(body, checked: false)
          }
        },
        observer: { .make(kind: .willSetOnce, willSet: signal.onChange, didSet: nil) })
      signal.replaceObserver(observer)
      return iteration
    }
  }
}
