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
/// nothing usable is stored; then the default state is written at once (only the
/// properties no other writer stored meanwhile). A stored value that can't be decoded is
/// reported (``PersistenceError/corrupt(underlying:movedTo:)`` or
/// ``PersistenceError/schemaMismatch(underlying:movedTo:)``) and moved aside — never
/// overwritten. A value stored by an older version of the model goes through the
/// ``PersistenceSchema``'s migration and is written back in the new form.
///
/// **Saving.** The model is encoded on its actor each time a transaction changes what
/// the encoding reads (any encoded property, nested tracked objects included); a
/// synchronous burst of changes is one transaction. The properties whose encoding
/// changed are written on a background queue, when the ``SavePolicy`` says. A write
/// applies those properties to the value stored at that moment, so writers sharing a
/// storage merge property by property, and where two change the same property, the
/// last to commit wins. A failed write is reported, the stored value stays intact, and
/// the next change, reconnect or ``flush()`` retries. ``flush()`` writes at once, and so
/// does the `Persisted` going away (see "Isolation").
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
/// read concurrently with its mutations). When it goes away, its `deinit` writes the
/// changes still waiting, before it returns. Errors are reported to `onError` on any
/// thread.
public final class Persisted<Model: Trackable & Codable> {
  /// The persisted model: restored from the storage, or made by `makeDefault`.
  public let model: Model
  /// Where the model is saved.
  public let storage: any PersistenceStorage
  /// When changes are written.
  public let savePolicy: SavePolicy
  /// What went wrong while restoring, if anything (it was also sent to `onError`).
  public let restoreError: PersistenceError?
  /// Whether other writers' changes are reloaded into the model: a ``ReloadableModel``
  /// in a ``SharedPersistenceStorage`` whose change reports started.
  public private(set) var reloadsExternalChanges = false

  private let restoredMayWrite: Bool
  private let sync: ModelSync<Model>
  private let writer: PersistenceWriter
  private let actor: (any Actor)?
  private var observation: TrackingToken?
  private var storageObservation: StorageObservation?
  private var isStopped = false

  init(
    storage: any PersistenceStorage,
    savePolicy: SavePolicy,
    schema: PersistenceSchema<Model>?,
    reload: ((Model, Model) -> Void)?,
    onError: @escaping @Sendable (PersistenceError) -> Void,
    isolation: isolated (any Actor)?,
    makeDefault: () -> Model
  ) {
    let restored = Restore<Model>.run(from: storage, schema: schema)
    if let error = restored.error { onError(error) }
    model = restored.model ?? makeDefault()
    self.storage = storage
    self.savePolicy = savePolicy
    restoreError = restored.error
    restoredMayWrite = restored.mayWrite
    actor = isolation
    let inbox = SyncInbox()
    writer = PersistenceWriter(
      storage: storage, policy: savePolicy, stored: restored.stored, inbox: inbox, onError: onError)
    sync = ModelSync(model: model, writer: writer, inbox: inbox, schema: schema, reload: reload, onError: onError)
    guard restored.mayWrite else { return }
    precondition(isolation != nil, "Persisted must be created on the actor that owns the model")

    sync.start(restoredFrom: restored.stored, migrated: restored.migrated)
    // Both closures below only ever run on the model's actor: the observation runs its
    // body only on `isolation`, and the inbox's hops there with
    // `perform(on:)`. So `sync` never leaves that actor. (Erased to plain closures
    // first, so the `@Sendable` ones don't capture `Model`.)
    let record = UncheckedSendable<() -> Void>({ [sync] in sync.record() })
    observation = Reaction.observe(
      options: .willSet, delivery: .coalesced, firstRun: .immediate,
      body: .onIsolation(isolation) { _ in record.value() })
    let process = UncheckedSendable<() -> Void>({ [weak sync] in sync?.processInbox() })
    let actor = isolation!
    inbox.setOnNews {
      Task { await perform(on: actor, process) }
    }
    guard reload != nil, let shared = storage as? any SharedPersistenceStorage else { return }
    do {
      storageObservation = try shared.observeChanges { [writer] in writer.refresh() }
      reloadsExternalChanges = true
    } catch {
      onError(.observationFailed(underlying: error))
    }
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
  ///   - onError: Receives every restore, save and reload error, on any thread.
  ///   - isolation: The actor that owns the model; the caller's, by default.
  ///   - makeDefault: Makes the model when nothing usable is stored.
  public convenience init(
    storage: any PersistenceStorage,
    savePolicy: SavePolicy = .immediate,
    schema: PersistenceSchema<Model>? = nil,
    onError: @escaping @Sendable (PersistenceError) -> Void = { _ in },
    isolation: isolated (any Actor)? = #isolation,
    makeDefault: () -> Model
  ) {
    self.init(
      storage: storage, savePolicy: savePolicy, schema: schema, reload: nil, onError: onError,
      isolation: isolation, makeDefault: makeDefault)
  }

  /// Restores the model from the JSON file at `url` (or makes it with `makeDefault`) and
  /// starts saving it there on every change.
  /// The parameters are those of `init(storage:savePolicy:schema:onError:isolation:makeDefault:)`.
  public convenience init(
    fileAt url: URL,
    savePolicy: SavePolicy = .immediate,
    schema: PersistenceSchema<Model>? = nil,
    onError: @escaping @Sendable (PersistenceError) -> Void = { _ in },
    isolation: isolated (any Actor)? = #isolation,
    makeDefault: () -> Model
  ) {
    self.init(
      storage: JSONFileStorage(url: url), savePolicy: savePolicy, schema: schema, reload: nil, onError: onError,
      isolation: isolation, makeDefault: makeDefault)
  }

  /// Whether changes are saved. `false` when the stored value could be neither read nor
  /// moved aside, or was stored by a newer schema version (see ``restoreError``): it is
  /// kept rather than overwritten.
  public var isSaving: Bool { restoredMayWrite && !sync.isStopped }

  /// Writes the changes not yet written, now, and waits for the write; then applies
  /// what the storage holds (other writers' changes included, for a reloading model).
  /// Call it at shutdown, or whenever the state must be stored.
  ///
  /// Blocks the caller while the storage writes. Does nothing when ``isSaving`` is off.
  /// - Throws: ``PersistenceError/encodingFailed(underlying:)`` or
  ///   ``PersistenceError/writeFailed(underlying:)`` (also sent to `onError`).
  public func flush() throws(PersistenceError) {
    guard isSaving else { return }
    if !isStopped, let error = sync.record() { throw error }
    try writer.flush()
    sync.processInbox()
  }

  /// Writes the changes not yet written, reads the stored value and applies other
  /// writers' changes to the model (a ``ReloadableModel``), now, blocking the caller.
  ///
  /// The change reports of a shared storage do this in the background; call it where
  /// the model must be current at once, or where the storage can't report changes.
  /// - Throws: What ``flush()`` throws, or ``PersistenceError/readFailed(underlying:)``.
  public func synchronize() throws(PersistenceError) {
    guard isSaving else { return }
    try flush()
    try writer.refreshNow()
    sync.processInbox()
  }

  /// How many writes succeeded since this value was created.
  public var saveCount: Int { writer.saveCount }

  /// How many writes failed since this value was created.
  public var failedSaveCount: Int { writer.failureCount }

  /// Whether changes are waiting to be written (or to be retried after a failure).
  public var hasUnsavedChanges: Bool { writer.hasPendingChanges }

  /// How many times other writers' changes were applied to the model.
  public var reloadCount: Int { sync.reloadCount }

  /// Stops saving changes and reloading other writers' changes. A write already queued
  /// still happens; ``flush()`` writes what was recorded before.
  public func stop() {
    isStopped = true
    observation?.cancel()
    observation = nil
    storageObservation?.cancel()
    storageObservation = nil
  }

  deinit {
    observation?.cancel()
    storageObservation?.cancel()
    guard restoredMayWrite, let actor else { return }
    // The final save: record what changed since the last run (unless stopped), write it.
    // By the isolation rule, the last reference goes away on the model's actor, so this
    // runs there (checked in debug builds).
    if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) {
      actor.assertIsolated("a Persisted must be released on the actor that owns its model")
    }
    if !isStopped { sync.record() }
    try? writer.flush()  // a failure was reported to `onError`
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
    onError: @escaping @Sendable (PersistenceError) -> Void = { _ in },
    isolation: isolated (any Actor)? = #isolation,
    makeDefault: () -> Model
  ) {
    self.init(
      storage: storage, savePolicy: savePolicy, schema: schema, reload: { $0.reload(from: $1) },
      onError: onError, isolation: isolation, makeDefault: makeDefault)
  }

  /// Restores the model from the JSON file at `url`, saves it there on every change and
  /// reloads the changes other processes store there.
  /// The parameters are those of `init(storage:savePolicy:schema:onError:isolation:makeDefault:)`.
  public convenience init(
    fileAt url: URL,
    savePolicy: SavePolicy = .immediate,
    schema: PersistenceSchema<Model>? = nil,
    onError: @escaping @Sendable (PersistenceError) -> Void = { _ in },
    isolation: isolated (any Actor)? = #isolation,
    makeDefault: () -> Model
  ) {
    self.init(
      storage: JSONFileStorage(url: url), savePolicy: savePolicy, schema: schema, reload: { $0.reload(from: $1) },
      onError: onError, isolation: isolation, makeDefault: makeDefault)
  }
}

/// Runs `work` on `actor`.
private func perform(on actor: isolated any Actor, _ work: UncheckedSendable<() -> Void>) {
  work.value()
}
