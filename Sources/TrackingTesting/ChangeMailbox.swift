import Tracking

/// Hands one value from an observer callback (any thread) to one waiting task, in
/// whichever order they arrive. Cancelling the waiting task makes it throw
/// `CancellationError`.
final class ChangeMailbox<Value: Sendable>: Sendable {
  private enum State {
    case empty
    case delivered(Value)
    case waiting(UnsafeContinuation<Value, any Error>)
    case cancelled
  }

  private let state = Locked(State.empty)

  /// Called by the observer, at most once.
  func deliver(_ value: Value) {
    let waiter = state.withLock { state -> UnsafeContinuation<Value, any Error>? in
      switch state {
      case .empty:
        state = .delivered(value)
        return nil
      case .waiting(let continuation):
        state = .cancelled
        return continuation
      case .delivered, .cancelled:
        return nil
      }
    }
    waiter?.resume(returning: value)
  }

  /// Returns the delivered value, waiting for it if needed.
  func receive() async throws -> Value {
    try await withTaskCancellationHandler {
      try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Value, any Error>) in
        let outcome = state.withLock { state -> Result<Value, any Error>? in
          switch state {
          case .empty:
            state = .waiting(continuation)
            return nil
          case .delivered(let value):
            return .success(value)
          case .waiting, .cancelled:
            return .failure(CancellationError())
          }
        }
        if let outcome { continuation.resume(with: outcome) }
      }
    } onCancel: {
      let waiter = state.withLock { state -> UnsafeContinuation<Value, any Error>? in
        defer { state = .cancelled }
        if case .waiting(let continuation) = state { return continuation }
        return nil
      }
      waiter?.resume(throwing: CancellationError())
    }
  }
}
