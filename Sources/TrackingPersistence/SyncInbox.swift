import Foundation

/// What the background side (the writer, the change reports) has learned about the
/// stored value and not yet handed to the model's actor: the newest stored bytes read
/// or written, and the newest generation of local changes known to be stored.
///
/// Only the newest of each is kept: bytes are read in order on the writer's queue, so
/// the newest read is the newest state, and an acknowledgement covers every older
/// generation. A hop to the actor is scheduled once per batch of news.
final class SyncInbox: Sendable {
  /// The stored value as one read (or write) saw it.
  struct Snapshot: Sendable {
    /// The bytes (`nil`: nothing was stored).
    var data: Data?
    /// Increases with each snapshot, so a reader knows which one is newer.
    var sequence: Int
  }

  private struct State {
    var snapshot: Snapshot?
    var sequence = 0
    var acknowledged = 0
    var hopScheduled = false
    var onNews: (@Sendable () -> Void)?
  }

  private let state = Locked(State())

  /// Sets what runs (once per batch, on any thread) when news arrives: the hop to the actor.
  func setOnNews(_ onNews: @escaping @Sendable () -> Void) {
    state.withLock { $0.onNews = onNews }
  }

  /// Records a read or written stored value, and the generation that a write stored.
  func post(stored data: Data?, acknowledging generation: Int? = nil) {
    let hop = state.withLock { state -> (@Sendable () -> Void)? in
      state.sequence += 1
      state.snapshot = Snapshot(data: data, sequence: state.sequence)
      if let generation { state.acknowledged = max(state.acknowledged, generation) }
      guard !state.hopScheduled, let onNews = state.onNews else { return nil }
      state.hopScheduled = true
      return onNews
    }
    hop?()
  }

  /// Takes the news: the newest snapshot (if one arrived since the last call) and the
  /// newest acknowledged generation. Clears the hop flag first, so news posted while
  /// the caller works schedules another hop.
  func take() -> (snapshot: Snapshot?, acknowledged: Int) {
    state.withLock { state in
      state.hopScheduled = false
      defer { state.snapshot = nil }
      return (state.snapshot, state.acknowledged)
    }
  }
}
