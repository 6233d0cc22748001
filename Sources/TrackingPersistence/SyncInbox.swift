import Foundation
import Tracking

/// What the background side (the writer, the change reports) has learned and not yet
/// handed to the model's actor: the newest stored bytes read or written, the newest
/// generation of local changes known to be stored, the outcome of the latest write,
/// and requests for the actor (encode the marked changes now; the storage is back, try
/// restoring again).
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
    /// Whether it may hold something the model has not seen: a read, or a write that
    /// found another writer's change (or stored a resolved conflict) — in this snapshot
    /// or one it replaced. A write of this model's own changes alone needs no merge,
    /// so an acknowledgement costs the actor nothing in proportion to the model.
    var needsMerge: Bool
  }

  /// Everything taken at once by ``take()``.
  struct News {
    var snapshot: Snapshot?
    var acknowledged = 0
    /// The latest write's failure, or `nil` if it succeeded (or none ended since).
    var writeOutcome: PersistenceError??
    /// The writer is due to write and the actor holds marked changes: encode them.
    var encodeRequested = false
    /// The storage answered again after failing at restore: restore now.
    var restoreReady = false
  }

  private struct State {
    var news = News()
    var sequence = 0
    var hopScheduled = false
    var onNews: (@Sendable () -> Void)?
  }

  private let state = Locked(State())

  /// Sets what runs (once per batch, on any thread) when news arrives: the hop to the actor.
  func setOnNews(_ onNews: @escaping @Sendable () -> Void) {
    state.withLock { $0.onNews = onNews }
  }

  /// Records a read or written stored value, and the generation that a write stored.
  /// `needsMerge`: see ``Snapshot/needsMerge``.
  func post(stored data: Data?, acknowledging generation: Int? = nil, needsMerge: Bool = true) {
    post { state in
      state.sequence += 1
      let earlierNeedsMerge = state.news.snapshot?.needsMerge ?? false
      state.news.snapshot = Snapshot(data: data, sequence: state.sequence, needsMerge: needsMerge || earlierNeedsMerge)
      if let generation {
        state.news.acknowledged = max(state.news.acknowledged, generation)
        state.news.writeOutcome = .some(nil)
      }
    }
  }

  /// Records that the latest write failed with `error`.
  func post(writeFailure error: PersistenceError) {
    post { $0.news.writeOutcome = .some(error) }
  }

  /// Asks the actor to encode its marked changes and hand them over for writing.
  func requestEncode() {
    post { $0.news.encodeRequested = true }
  }

  /// Tells the actor the storage answers again, so restoring can be tried again.
  func postRestoreReady() {
    post { $0.news.restoreReady = true }
  }

  private func post(_ change: (inout State) -> Void) {
    let hop = state.withLock { state -> (@Sendable () -> Void)? in
      change(&state)
      guard !state.hopScheduled, let onNews = state.onNews else { return nil }
      state.hopScheduled = true
      return onNews
    }
    hop?()
  }

  /// Takes the news. The acknowledged generation stays (it only grows); the rest is
  /// cleared. Clears the hop flag first, so news posted while the caller works
  /// schedules another hop.
  func take() -> News {
    state.withLock { state in
      state.hopScheduled = false
      let news = state.news
      state.news = News(acknowledged: news.acknowledged)
      return news
    }
  }
}
