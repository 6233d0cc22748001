
/// The meeting point between the observers installed by one consumer (an iterator,
/// a callback) and the task that waits for their next change.
///
/// A change either wakes the waiting task or, when nobody waits yet, is remembered
/// (`pending`), so a change that lands between two `next()` calls is never lost and a
/// burst of changes is one wake-up. Cancelling wakes the waiter for good and cancels
/// the installed observer, which releases its callback at once.
///
/// `@unchecked Sendable`: its mutable state is behind `state`'s lock; `onChange` is
/// written once in `init`, before the signal is shared.
@usableFromInline
final class ChangeSignal: @unchecked Sendable {
  private struct State {
    var pending = false
    var cancelled = false
    /// A round is reading: changes now are the round's own writes (ignored, as
    /// Apple's tracking ignores writes made inside `apply`).
    var evaluating = false
    var waiter: UnsafeContinuation<Bool, Never>?
    var observer: TrackingObserver?
    /// What the installed observer watches (for ``watch(_:)``), by address; keeps
    /// nothing alive. `nil` when there is nothing to compare a round with (no
    /// observer yet, or forgotten because an object it described was deallocated).
    var signature: ReadSignature?
  }

  private let state = Locked(State())

  /// The handler that observers installed for this signal call: signals it, without
  /// keeping it alive. Made once in `init`, shared by every round's observer.
  /// (`@exclusivity(unchecked)`: written once, in `init`, before the signal is shared;
  /// only read afterwards, from any thread.)
  @usableFromInline @exclusivity(unchecked) private(set) var onChange = TrackingObserver.Handler.plain {}

  /// The deinit handler of the same observers: an object they watch was deallocated,
  /// so the signature (by address) is forgotten before the address can be reused.
  /// Written once, in `init`, like `onChange`.
  @exclusivity(unchecked) private var onDeallocation = TrackingObserver.Handler.plain {}

  @usableFromInline
  init() {
    onChange = .plain { [weak self] in self?.signal() }
    onDeallocation = .plain { [weak self] in self?.state.withLock { $0.signature = nil } }
  }

  /// Called from an observer, on the mutating thread.
  func signal() {
    let waiter = state.withLock { state -> UnsafeContinuation<Bool, Never>? in
      guard !state.evaluating else { return nil }
      guard let waiter = state.waiter else {
        state.pending = true
        return nil
      }
      state.waiter = nil
      return waiter
    }
    waiter?.resume(returning: true)
  }

  /// Suspends until the next change, or returns at once if one is pending or the
  /// signal was cancelled. Stays on the caller's actor.
  ///
  /// - Returns: `false` if the signal was cancelled (including by task cancellation).
  @usableFromInline
  func wait(isolation actor: isolated (any Actor)? = #isolation) async -> Bool {
    await withTaskCancellationHandler {
      await withUnsafeContinuation(isolation: actor) { (continuation: UnsafeContinuation<Bool, Never>) in
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
    } onCancel: {
      cancel()
    }
  }

  /// Starts a round: forgets changes signalled so far (the rest of the burst that
  /// woke this round is visible to its read, so it must not wake the next round too)
  /// and ignores changes until ``watch(_:)`` ends the round (the round's own writes).
  @usableFromInline
  func beginRound() {
    state.withLock { state in
      state.pending = false
      state.evaluating = true
    }
  }

  /// Ends a round: makes sure a repeating observer watches exactly `reads`. Keeps the installed one
  /// when the round read the same properties of the same objects as the previous
  /// round (the usual case, which then costs no allocation and no install), else
  /// installs a new one and cancels the previous one.
  ///
  /// A change that another thread made while the round was reading (ignored by
  /// `signal()` while `evaluating`) is caught here: it leaves a change pending, so the
  /// next `wait()` returns at once and the final value is never lost.
  @usableFromInline
  func watch(_ reads: AccessList) {
    let unchanged = state.withLock { state -> Bool in
      guard let observer = state.observer, observer.isPending else { return false }
      return state.signature?.matches(reads) ?? false
    }
    if !unchanged {
      // By address: the observer's deinit handler forgets it when an object goes.
      let signature = reads.addressSignature
      var observer: TrackingObserver?
      if !reads.isEmpty {
        // The did-set signals too: a round that started at another thread's willSet may
        // have read before that thread stored the value; its didSet then asks for
        // another round, so the final value is never lost.
        let new = TrackingObserver.make(
          kind: .willSetAndDidSetRepeating, willSet: onChange, didSet: onChange, deinit: onDeallocation)
        reads.install(new)
        observer = new
      }
      let (previous, cancelled) = state.withLock { state in
        defer {
          state.observer = observer
          state.signature = signature
        }
        return (state.observer, state.cancelled)
      }
      previous?.cancel()
      if cancelled { observer?.cancel() }
    }
    let changedElsewhere = !reads.isEmpty && reads.changedElsewhere()
    state.withLock { state in
      state.evaluating = false
      if changedElsewhere { state.pending = true }
    }
  }

  /// Remembers the observer for the current round, cancelling the previous one.
  /// If the signal was already cancelled, the new observer is cancelled too.
  @usableFromInline
  func replaceObserver(_ observer: TrackingObserver?) {
    let (previous, cancelled) = state.withLock { state in
      defer { state.observer = observer }
      return (state.observer, state.cancelled)
    }
    previous?.cancel()
    if cancelled { observer?.cancel() }
  }

  /// Ends the signal: wakes a waiter and cancels the installed observer.
  @usableFromInline
  func cancel() {
    let (waiter, observer) = state.withLock { state in
      state.cancelled = true
      defer {
        state.waiter = nil
        state.observer = nil
        state.signature = nil
      }
      return (state.waiter, state.observer)
    }
    observer?.cancel()
    waiter?.resume(returning: false)
  }

  deinit {
    // Nobody can wait any more; release the pending observer's callback now rather
    // than when its property next changes.
    state.withLock { $0.observer }?.cancel()
  }
}
