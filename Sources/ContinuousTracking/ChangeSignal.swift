import Tracking

/// The meeting point between the observers installed by one consumer (an iterator,
/// a callback) and the task that waits for their next change.
///
/// A change either wakes the waiting task or, when nobody waits yet, is remembered
/// (`pending`), so a change that lands between two `next()` calls is never lost and a
/// burst of changes is one wake-up. Cancelling wakes the waiter for good and cancels
/// the installed observer, which releases its callback at once.
final class ChangeSignal: @unchecked Sendable {
  private struct State {
    var pending = false
    var cancelled = false
    var waiter: UnsafeContinuation<Void, Never>?
    var observer: TrackingObserver?
  }

  private let state = Locked.make(State())

  /// Called from an observer, on the mutating thread.
  func signal() {
    let waiter = state.withLock { state -> UnsafeContinuation<Void, Never>? in
      guard let waiter = state.waiter else {
        state.pending = true
        return nil
      }
      state.waiter = nil
      return waiter
    }
    waiter?.resume()
  }

  /// Suspends until the next change, or returns at once if one is pending or the
  /// signal was cancelled.
  func wait() async {
    await withTaskCancellationHandler {
      await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
        let resumeNow = state.withLock { state -> Bool in
          if state.pending || state.cancelled {
            state.pending = false
            return true
          }
          state.waiter = continuation
          return false
        }
        if resumeNow { continuation.resume() }
      }
    } onCancel: {
      cancel()
    }
  }

  /// Remembers the observer for the current round, cancelling the previous one.
  /// If the signal was already cancelled, the new observer is cancelled too.
  func replaceObserver(_ observer: TrackingObserver?) {
    let (previous, cancelled) = state.withLock { state in
      defer { state.observer = observer }
      return (state.observer, state.cancelled)
    }
    previous?.cancel()
    if cancelled { observer?.cancel() }
  }

  var isCancelled: Bool { state.withLock { $0.cancelled } }

  /// Ends the signal: wakes a waiter and cancels the installed observer.
  func cancel() {
    let (waiter, observer) = state.withLock { state in
      state.cancelled = true
      defer {
        state.waiter = nil
        state.observer = nil
      }
      return (state.waiter, state.observer)
    }
    observer?.cancel()
    waiter?.resume()
  }

  deinit {
    // Nobody can wait any more; release the pending observer's callback now rather
    // than when its property next changes.
    state.withLock { $0.observer }?.cancel()
  }
}
