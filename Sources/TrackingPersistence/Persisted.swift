import Tracking
import Foundation

/// Keeps a `Codable` tracked model saved: restores it at start, saves it after every
/// transaction that changes it, and writes the latest state on ``flush()``.
///
/// ```swift
/// @MainActor @Trackable final class Scene: Codable {
///   var query = ""
///   var path: [String] = []
/// }
///
/// @MainActor let persisted = Persisted(fileAt: documents.appending(path: "scene.json")) { Scene() }
/// persisted.model.query = "tea"      // saved once the main actor is free again
/// try persisted.flush()              // at shutdown: the latest state, written now
/// ```
///
/// **Restoring.** The model is decoded from the storage, or made by `makeDefault` when
/// nothing is stored. A stored value that can't be decoded is reported
/// (``PersistenceError/corrupt(underlying:movedTo:)`` or
/// ``PersistenceError/schemaMismatch(underlying:movedTo:)``), moved aside by the storage
/// — never overwritten — and the model starts from its defaults.
///
/// **Saving.** The model is encoded on its actor each time a transaction changes what
/// the encoding reads (any encoded property, nested tracked objects included). A
/// synchronous burst of changes is one transaction, so it is one encoding and one
/// write. Writes happen in order on a background queue; with a `debounce` interval there
/// is at most one write per interval, and the last state is always written. A failed
/// write is reported, the previously saved value stays intact, and the next change (or
/// ``flush()``) retries.
///
/// **Isolation.** Create it on the actor that owns the model (usually the main actor)
/// and use it there: the model is only encoded on that actor. Creating it outside any
/// actor is a precondition failure (the model would be read concurrently with its
/// mutations). Errors are reported to `onError` on any thread.
public final class Persisted<Model: Trackable & Codable> {
  /// The persisted model: restored from the storage, or made by `makeDefault`.
  public let model: Model
  /// Where the model is saved.
  public let storage: any PersistenceStorage
  /// What went wrong while restoring, if anything (it was also sent to `onError`).
  public let restoreError: PersistenceError?
  /// Whether changes are saved. `false` only when the stored value could be neither
  /// read nor moved aside (see ``restoreError``): it is kept rather than overwritten.
  public let isSaving: Bool

  private let recorder: ChangeRecorder<Model>
  private let writer: PersistenceWriter
  private var observation: TrackingToken?

  /// Restores the model from `storage` (or makes it with `makeDefault`) and starts
  /// saving it on every change.
  ///
  /// - Parameters:
  ///   - storage: Where the model lives, for example a ``JSONFileStorage``.
  ///   - debounce: If set, writes are at most one per interval; the last state is
  ///     always written. `nil` writes after every transaction.
  ///   - onError: Receives every restore and save error, on any thread.
  ///   - isolation: The actor that owns the model; the caller's, by default.
  ///   - makeDefault: Makes the model when nothing usable is stored.
  public init(
    storage: any PersistenceStorage,
    debounce: Duration? = nil,
    onError: @escaping @Sendable (PersistenceError) -> Void = { _ in },
    isolation: isolated (any Actor)? = #isolation,
    makeDefault: () -> Model
  ) {
    let restored = Restore<Model>.run(from: storage)
    if let error = restored.error { onError(error) }
    model = restored.model ?? makeDefault()
    self.storage = storage
    restoreError = restored.error
    isSaving = restored.mayWrite
    writer = PersistenceWriter(storage: storage, interval: debounce, onError: onError)
    recorder = ChangeRecorder(model: model, writer: writer, onError: onError)
    guard isSaving else { return }
    precondition(isolation != nil, "Persisted must be created on the actor that owns the model")
    // The observation runs its body only on `isolation`, the model's actor, so the
    // recorder never leaves that actor (hence the unchecked box).
    // (Erased to a plain closure first, so the `@Sendable` one doesn't capture `Model`.)
    let record = UncheckedSendable<() -> Void>({ [recorder] in recorder.record() })
    observation = ContinuousObservation.start(
      options: .willSet, delivery: .coalesced, firstRun: .immediate,
      body: .onIsolation(isolation) { _ in record.value() })
  }

  /// Restores the model from the JSON file at `url` (or makes it with `makeDefault`) and
  /// starts saving it there on every change. See ``init(storage:debounce:onError:isolation:makeDefault:)``.
  public convenience init(
    fileAt url: URL,
    debounce: Duration? = nil,
    onError: @escaping @Sendable (PersistenceError) -> Void = { _ in },
    isolation: isolated (any Actor)? = #isolation,
    makeDefault: () -> Model
  ) {
    self.init(
      storage: JSONFileStorage(url: url), debounce: debounce, onError: onError, isolation: isolation,
      makeDefault: makeDefault)
  }

  /// Writes the model's current state now, if it differs from what was saved, and waits
  /// for the write. Call it at shutdown, or whenever the state must be on disk.
  ///
  /// Blocks the caller while the storage writes. Does nothing when ``isSaving`` is off.
  /// - Throws: ``PersistenceError/encodingFailed(underlying:)`` or
  ///   ``PersistenceError/writeFailed(underlying:)`` (also sent to `onError`).
  public func flush() throws(PersistenceError) {
    guard isSaving else { return }
    if let error = recorder.record() { throw error }
    try writer.flush()
  }

  /// How many writes succeeded since this value was created.
  public var saveCount: Int { writer.saveCount }

  /// How many writes failed since this value was created.
  public var failedSaveCount: Int { writer.failureCount }

  /// Whether a changed state is waiting to be written (or to be retried after a failure).
  public var hasUnsavedChanges: Bool { writer.hasPendingValue }

  /// Stops saving changes. A write already queued still happens; ``flush()`` still works.
  public func stop() {
    observation?.cancel()
    observation = nil
  }
}
