import Foundation
import Tracking

/// Keeps a `Codable` tracked model saved: restores it at start, saves the properties
/// that change, and — for a ``ReloadableModel`` in a ``SharedPersistenceStorage`` —
/// reloads the changes other processes or machines store.
///
/// ```swift
/// @Trackable final class Scene: Codable {
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
/// nothing usable is stored; then the default state is written at once, whatever the
/// save policy (only the properties no other writer stored meanwhile). A stored value
/// that can't be decoded is reported (``PersistenceError/corrupt(underlying:movedTo:)``
/// or ``PersistenceError/schemaMismatch(underlying:movedTo:)``) and moved aside — never
/// overwritten. A value stored by an older version of the model goes through the
/// ``PersistenceSchema``'s migration and is written back in the new form. When the
/// storage can't be read at all, the model starts from `makeDefault` and nothing is
/// written until it can: see ``status``.
///
/// **Saving.** A change marks the top-level property it belongs to (nested tracked
/// objects count for the property holding them); nothing is encoded then. When the
/// ``SavePolicy`` says to write, the marked properties are encoded, each alone, on the
/// model's actor, and the ones whose encoding changed are written on a background
/// queue. A write applies those properties to the value stored at that moment, so
/// writers sharing a storage merge property by property, and where two change the same
/// property, the last to commit wins (or `resolvingConflicts` decides). A failed write
/// is reported, the stored value stays intact, and the write is retried (see
/// ``PersistenceStatus``). ``flush()`` writes at once, and so does the `Persisted`
/// going away (see "Isolation").
///
/// **Other writers.** With a ``ReloadableModel`` and a ``SharedPersistenceStorage``
/// (``JSONFileStorage``, `SQLiteStorage`, `PostgreSQLStorage`), another writer's change
/// is read in the background and merged into the live model on its actor: properties
/// changed here and not yet saved keep their local values; the others take the stored
/// values through ``ReloadableModel/reload(from:)``, so only the observers of properties
/// whose values changed are notified. The model's own writes are not applied back. A
/// value the model can't read is reported, moved aside and replaced with the good
/// state; the model keeps its state.
///
/// **Isolation.** Create it on the actor that owns the model (usually the main actor),
/// use it there and release it there: the model is only encoded, and reloaded, on that
/// actor. Creating it outside any actor is a precondition failure (the model would be
/// read concurrently with its mutations). No call blocks the actor longer than the
/// storage's ``PersistenceStorage/timeout`` (restoring, ``flush()``,
/// ``synchronize()``). When it goes away, its `deinit` writes the changes still
/// waiting, before it returns. Errors are reported to `onError` on any thread.
public final class Persisted<Model: Trackable & Codable> {
  /// The persisted model: restored from the storage, or made by `makeDefault`.
  public let model: Model
  /// Where the model is saved.
  public let storage: any PersistenceStorage
  /// When changes are written.
  public let savePolicy: SavePolicy
  /// What went wrong while restoring at launch, if anything (it was also sent to
  /// `onError`).
  public let restoreError: PersistenceError?
  /// Whether other writers' changes are reloaded into the model: a ``ReloadableModel``
  /// in a ``SharedPersistenceStorage`` whose change reports started.
  public private(set) var reloadsExternalChanges = false

  private let sync: ModelSync<Model>
  private let writer: PersistenceWriter
  private let onError: @Sendable (PersistenceError) -> Void
  private var storageObservation: StorageObservation?
  private var isStopped = false

  init(
    storage: any PersistenceStorage,
    savePolicy: SavePolicy,
    schema: PersistenceSchema<Model>?,
    reload: ((Model, Model) -> Void)?,
    resolver: ConflictResolver?,
    onError: @escaping @Sendable (PersistenceError) -> Void,
    isolation: isolated (any Actor)?,
    makeDefault: () -> Model
  ) {
    guard let actor = isolation else {
      preconditionFailure("Persisted must be created on the actor that owns the model")
    }
    let inbox = SyncInbox()
    let writer = PersistenceWriter(
      storage: storage, policy: savePolicy, inbox: inbox, resolver: resolver, onError: onError)
    let timeout = storage.timeout
    let restored = Restore<Model>.run(load: { try writer.load(timeout: timeout) }, from: storage, schema: schema)
    if let error = restored.error { onError(error) }
    model = restored.model ?? makeDefault()
    self.storage = storage
    self.savePolicy = savePolicy
    self.onError = onError
    self.writer = writer
    restoreError = restored.error
    sync = ModelSync(
      model: model, writer: writer, inbox: inbox, storage: storage, schema: schema, reload: reload, actor: actor,
      onError: onError)
    // The inbox's hop runs `sync` on the model's actor only (`runOnActor`), so `sync`
    // never leaves it. (Erased to a plain closure first, so the `@Sendable` one doesn't
    // capture `Model`.)
    let process = UncheckedSendable<() -> Void>({ [weak self] in self?.processInbox() })
    inbox.setOnNews {
      Task { await runOnActor(actor, process) }
    }
    sync.start(restored.state)
    startObservingStorage()
  }

  /// Restores the model from `storage` (or makes it with `makeDefault`) and starts
  /// saving it on every change.
  ///
  /// - Parameters:
  ///   - storage: Where the model lives, for example a ``JSONFileStorage``.
  ///   - savePolicy: When changes are written: after every transaction (the default),
  ///     debounced or throttled.
  ///   - schema: The version of the stored form and the migration of older values;
  ///     `nil` stores no version.
  ///   - resolvingConflicts: Decides a property changed both here and by another
  ///     writer since (see ``PropertyConflict``); `nil`: the last write to commit wins.
  ///   - onError: Receives every restore, save and reload error, on any thread. By
  ///     default, a warning on standard error in debug builds
  ///     (``PersistenceError/warnInDebugBuilds(_:)``).
  ///   - isolation: The actor that owns the model; the caller's, by default.
  ///   - makeDefault: Makes the model when nothing usable is stored.
  public convenience init(
    storage: any PersistenceStorage,
    savePolicy: SavePolicy = .immediate,
    schema: PersistenceSchema<Model>? = nil,
    resolvingConflicts: ConflictResolver? = nil,
    onError: @escaping @Sendable (PersistenceError) -> Void = PersistenceError.warnInDebugBuilds,
    isolation: isolated (any Actor)? = #isolation,
    makeDefault: () -> Model
  ) {
    self.init(
      storage: storage, savePolicy: savePolicy, schema: schema, reload: nil, resolver: resolvingConflicts,
      onError: onError, isolation: isolation, makeDefault: makeDefault)
  }

  /// Restores the model from the JSON file at `url` (or makes it with `makeDefault`) and
  /// starts saving it there on every change.
  /// The parameters are those of
  /// `init(storage:savePolicy:schema:resolvingConflicts:onError:isolation:makeDefault:)`.
  public convenience init(
    fileAt url: URL,
    savePolicy: SavePolicy = .immediate,
    schema: PersistenceSchema<Model>? = nil,
    resolvingConflicts: ConflictResolver? = nil,
    onError: @escaping @Sendable (PersistenceError) -> Void = PersistenceError.warnInDebugBuilds,
    isolation: isolated (any Actor)? = #isolation,
    makeDefault: () -> Model
  ) {
    self.init(
      storage: JSONFileStorage(url: url), savePolicy: savePolicy, schema: schema, reload: nil,
      resolver: resolvingConflicts, onError: onError, isolation: isolation, makeDefault: makeDefault)
  }

  /// Where saving stands: restoring, saved, saving, failed or disabled. Tracked: read
  /// it inside `observe { … }` (or a SwiftUI body) to follow it.
  public var status: PersistenceStatus { sync.statusCell.value }

  /// Whether changes reach the storage: `false` while the stored value could not be
  /// read yet, or when saving is off for this run (see ``status``).
  public var isSaving: Bool { sync.blockingError == nil }

  /// Writes the changes not yet written, now, and waits for the write; then applies
  /// what the storage holds (other writers' changes included, for a reloading model).
  /// Call it at shutdown, or whenever the state must be stored.
  ///
  /// Blocks the caller while the storage writes, at most the storage's
  /// ``PersistenceStorage/timeout``. If the stored value could not be read at launch,
  /// it is read first (and merged into the model).
  /// - Throws: ``PersistenceError/encodingFailed(underlying:)``,
  ///   ``PersistenceError/writeFailed(underlying:)`` (also sent to `onError`;
  ///   ``StorageTimeout`` as its underlying error when the wait ran out: the write goes
  ///   on), or — when nothing can be saved — the reason: the failure to read the stored
  ///   value, or why saving is off. Never returns normally while changes can't be saved.
  public func flush() throws(PersistenceError) {
    if case .unrestored = sync.phase, let error = sync.restoreNow() { throw error }
    if let error = sync.blockingError { throw error }
    if !isStopped, let error = sync.record() { throw error }
    do {
      try writer.flush(timeout: storage.timeout)
    } catch {
      processInbox()
      throw error
    }
    processInbox()
  }

  /// Writes the changes not yet written, reads the stored value and applies other
  /// writers' changes to the model (a ``ReloadableModel``), now, blocking the caller
  /// (each step at most the storage's ``PersistenceStorage/timeout``).
  ///
  /// The change reports of a shared storage do this in the background; call it where
  /// the model must be current at once, or where the storage can't report changes.
  /// - Throws: What ``flush()`` throws, or ``PersistenceError/readFailed(underlying:)``.
  public func synchronize() throws(PersistenceError) {
    try flush()
    try writer.refreshNow(timeout: storage.timeout)
    processInbox()
  }

  /// How many writes succeeded since this value was created.
  public var saveCount: Int { writer.saveCount }

  /// How many writes failed since this value was created.
  public var failedSaveCount: Int { writer.failureCount }

  /// Whether changes wait to be written (or retried after a failure) — and, while the
  /// stored value could not be read or saving is off, always: nothing is saved then.
  public var hasUnsavedChanges: Bool { sync.hasUnsavedChanges }

  /// How many times other writers' changes were applied to the model.
  public var reloadCount: Int { sync.reloadCount }

  /// Stops saving changes and reloading other writers' changes. A write already queued
  /// still happens; ``flush()`` writes what was recorded before.
  public func stop() {
    if !isStopped { sync.record() }  // what changed until now counts as recorded
    isStopped = true
    sync.stop()
    storageObservation?.cancel()
    storageObservation = nil
  }

  deinit {
    sync.stop()
    storageObservation?.cancel()
    // The final save: record what changed since the last run (unless stopped), write it.
    // By the isolation rule, the last reference goes away on the model's actor, so this
    // runs there (checked in debug builds).
    if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) {
      sync.actor.assertIsolated("a Persisted must be released on the actor that owns its model")
    }
    if case .running = sync.phase {
      if !isStopped { sync.record() }
      try? writer.flush(timeout: storage.timeout)  // a failure was reported to `onError`
    } else if sync.hasChangesThatCannotBeSaved, let error = sync.blockingError {
      onError(error)  // going away with changes that could not be saved: said once more
    }
    writer.close()
  }

  private func processInbox() {
    sync.processInbox()
    if storageObservation == nil { startObservingStorage() }
  }

  /// Starts reloading other writers' changes, once the stored value has been read.
  private func startObservingStorage() {
    guard !isStopped, storageObservation == nil, case .running = sync.phase, sync.reload != nil,
      let shared = storage as? any SharedPersistenceStorage
    else { return }
    do {
      storageObservation = try shared.observeChanges { [writer] in writer.refresh() }
      reloadsExternalChanges = true
    } catch {
      storageObservation = StorageObservation {}  // tried once: don't try at every hop
      onError(.observationFailed(underlying: error))
    }
  }
}

extension Persisted where Model: ReloadableModel {
  /// Restores the model from `storage` (or makes it with `makeDefault`), saves it on
  /// every change, and — with a ``SharedPersistenceStorage`` — reloads the changes other
  /// writers store. The parameters are those of the initializer for any model.
  public convenience init(
    storage: any PersistenceStorage,
    savePolicy: SavePolicy = .immediate,
    schema: PersistenceSchema<Model>? = nil,
    resolvingConflicts: ConflictResolver? = nil,
    onError: @escaping @Sendable (PersistenceError) -> Void = PersistenceError.warnInDebugBuilds,
    isolation: isolated (any Actor)? = #isolation,
    makeDefault: () -> Model
  ) {
    self.init(
      storage: storage, savePolicy: savePolicy, schema: schema, reload: { $0.reload(from: $1) },
      resolver: resolvingConflicts, onError: onError, isolation: isolation, makeDefault: makeDefault)
  }

  /// Restores the model from the JSON file at `url`, saves it there on every change and
  /// reloads the changes other processes store there.
  /// The parameters are those of
  /// `init(storage:savePolicy:schema:resolvingConflicts:onError:isolation:makeDefault:)`.
  public convenience init(
    fileAt url: URL,
    savePolicy: SavePolicy = .immediate,
    schema: PersistenceSchema<Model>? = nil,
    resolvingConflicts: ConflictResolver? = nil,
    onError: @escaping @Sendable (PersistenceError) -> Void = PersistenceError.warnInDebugBuilds,
    isolation: isolated (any Actor)? = #isolation,
    makeDefault: () -> Model
  ) {
    self.init(
      storage: JSONFileStorage(url: url), savePolicy: savePolicy, schema: schema, reload: { $0.reload(from: $1) },
      resolver: resolvingConflicts, onError: onError, isolation: isolation, makeDefault: makeDefault)
  }
}
