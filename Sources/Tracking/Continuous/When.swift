/// Waits until `condition` holds: returns at once if it already does, else after the
/// first change that makes it true.
///
/// ```swift
/// try await when { model.isReady }
/// try await when(timeout: .seconds(5)) { downloads.remaining == 0 }
/// ```
///
/// The condition is evaluated on the caller's actor, tracked, and again after each
/// change of what it read (MobX's `when`). No change is lost, including one made on
/// another thread while the condition was being read.
///
/// - Parameters:
///   - timeout: How long to wait, on `clock`; `nil` waits as long as it takes.
///   - clock: The clock that measures the timeout (a test clock in tests).
///   - isolation: The actor the condition is evaluated on; the caller's, by default.
///   - condition: What to wait for, isolated to the caller's actor.
/// - Throws: `CancellationError` when the calling task is cancelled, and
///   ``WhenTimeoutError`` when the timeout passes first.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, macCatalyst 16, *)
public func when<C: Clock<Duration>>(
  timeout: Duration? = nil,
  clock: C = ContinuousClock(),
  isolation: isolated (any Actor)? = #isolation,
  @_inheritActorContext _ condition: @escaping @isolated(any) @Sendable () -> Bool
) async throws {
  let outcome = WhenOutcome()
  let token = Reaction.observe(
    options: .didSet, delivery: .immediate, firstRun: .immediate,
    body: .onIsolation(condition.isolation) { event in
      if callOnItsActor(condition, checked: false) {
        outcome.finish(.success(()))
        event.cancel()
      }
    })
  defer { token.cancel() }
  try await withThrowingTaskGroup(of: Void.self, isolation: isolation) { group in
    group.addTask { try await outcome.wait() }
    if let timeout {
      group.addTask {
        try await clock.sleep(for: timeout)
        throw WhenTimeoutError(timeout: timeout)
      }
    }
    defer { group.cancelAll() }
    try await group.next()
  }
}

/// The error ``when(timeout:clock:isolation:_:)`` throws when its condition did not
/// hold in time.
public struct WhenTimeoutError: Error, Sendable, Equatable, CustomStringConvertible {
  /// How long it waited.
  public let timeout: Duration

  /// A sentence saying how long the condition was awaited.
  public var description: String { "The condition did not hold within \(timeout)." }
}

/// The result of a `when`, handed from the observation (any thread) to the waiting task.
private final class WhenOutcome: Sendable {
  private enum State {
    case waiting(UnsafeContinuation<Void, any Error>?)
    case done(Result<Void, any Error>)
  }

  private let state = Locked(State.waiting(nil))

  func finish(_ result: Result<Void, any Error>) {
    let waiter = state.withLock { state -> UnsafeContinuation<Void, any Error>? in
      guard case .waiting(let waiter) = state else { return nil }
      state = .done(result)
      return waiter
    }
    waiter?.resume(with: result)
  }

  func wait() async throws {
    try await withTaskCancellationHandler {
      try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
        let result = state.withLock { state -> Result<Void, any Error>? in
          switch state {
          case .done(let result): return result
          case .waiting: state = .waiting(continuation)
          }
          return nil
        }
        if let result { continuation.resume(with: result) }
      }
    } onCancel: {
      finish(.failure(CancellationError()))
    }
  }
}
