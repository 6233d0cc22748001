import Tracking

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

  enum Producer: Sendable {
    case element(@isolated(any) @Sendable () throws(Failure) -> Element)
    case iteration(@isolated(any) @Sendable () throws(Failure) -> Iteration)

    var isolation: (any Actor)? {
      switch self {
      case .element(let body): body.isolation
      case .iteration(let body): body.isolation
      }
    }
  }

  let producer: Producer

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
  public struct Iterator: AsyncIteratorProtocol {
    let producer: Producer
    private var signal: ChangeSignal? = ChangeSignal()
    private var started = false

    init(producer: Producer) {
      self.producer = producer
    }

    public mutating func next(
      isolation actor: isolated (any Actor)? = #isolation
    ) async throws(Failure) -> Element? {
      guard let signal else { return nil }
      if started {
        await signal.wait()
      }
      started = true
      guard !Task.isCancelled, !signal.isCancelled else { return finish() }
      do {
        let iteration = try await Self.evaluate(isolation: producer.isolation, producer, signal)
        switch iteration {
        case .next(let element): return element
        case .finish: return finish()
        }
      } catch {
        _ = finish()
        throw error
      }
    }

    private mutating func finish() -> Element? {
      signal?.cancel()
      signal = nil
      return nil
    }

    /// Runs the producer on its actor inside a tracking scope; the installed observer
    /// signals at the first `willSet` of anything it read.
    private static func evaluate(
      isolation actor: isolated (any Actor)?, _ producer: Producer, _ signal: ChangeSignal
    ) throws(Failure) -> Iteration {
      let onChange = TrackingObserver.Handler.plain { [weak signal] in signal?.signal() }
      switch producer {
      case .element(let body):
        let (value, observer) = try trackIsolated(
          isolation: actor, body, kind: .willSetOnce, willSet: onChange, didSet: nil)
        signal.replaceObserver(observer)
        return .next(value)
      case .iteration(let body):
        let (value, observer) = try trackIsolated(
          isolation: actor, body, kind: .willSetOnce, willSet: onChange, didSet: nil)
        signal.replaceObserver(observer)
        return value
      }
    }
  }
}
