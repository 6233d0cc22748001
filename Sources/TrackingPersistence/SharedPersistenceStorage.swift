import Foundation

/// A storage that other processes, connections or machines write too: it can change
/// the stored value atomically against all of them, and it reports their changes.
///
/// ``Persisted`` uses it to share one model between writers without losing anyone's
/// changes: each save reads the stored value, applies only the properties this writer
/// changed, and stores the result, in one ``update(_:)``. So concurrent writers merge
/// property by property, and where two changed the same property, the last to commit
/// wins. Changes reported by ``observeChanges(_:)`` are reloaded into the live model.
///
/// The contract, beyond ``PersistenceStorage``'s:
/// - ``update(_:)`` runs its closure with the value currently stored and stores what it
///   decides, with no other writer's update in between (a file lock, a database
///   transaction, a row lock), atomically as ``PersistenceStorage/save(_:)`` does.
/// - ``observeChanges(_:)`` calls its closure, on any thread, at some point after every
///   change committed by another writer (several changes may be reported once), and
///   after a lost connection is restored (changes may have been missed). It may also
///   report this storage's own writes, or nothing at all: ``Persisted`` compares what it
///   reads with what it knows, so a spurious report costs one read.
///
/// ``JSONFileStorage``, `SQLiteStorage` and `PostgreSQLStorage` conform.
public protocol SharedPersistenceStorage: PersistenceStorage {
  /// Reads the stored value (`nil`: nothing stored), lets `decide` say what to do with
  /// it, and does it, atomically with respect to every other writer of this storage.
  ///
  /// - Returns: What is stored afterwards, and where a moved-aside value went.
  func update(_ decide: (_ stored: Data?) throws -> StoredValueChange) throws -> StoredValueUpdate

  /// Starts reporting changes made by other writers; they stop when the returned
  /// observation is cancelled or released.
  func observeChanges(_ onChange: @escaping @Sendable () -> Void) throws -> StorageObservation
}

/// What ``SharedPersistenceStorage/update(_:)`` does with the value it read.
public enum StoredValueChange: Sendable, Equatable {
  /// Leave it as it is.
  case keep
  /// Replace it with these bytes.
  case replace(Data)
  /// Move it aside, as ``PersistenceStorage/quarantine(reason:)`` does, and store
  /// `replacement` in its place (or nothing, if `nil`).
  case moveAside(reason: String, replacement: Data?)
}

/// What ``SharedPersistenceStorage/update(_:)`` left behind.
public struct StoredValueUpdate: Sendable, Equatable {
  /// The value stored once the update is done (`nil`: nothing is stored).
  public var stored: Data?
  /// Where the value that was moved aside went, if one was.
  public var movedTo: QuarantineLocation?

  /// An update's outcome.
  public init(stored: Data?, movedTo: QuarantineLocation? = nil) {
    self.stored = stored
    self.movedTo = movedTo
  }
}

/// Keeps a storage's change reports coming. Cancel it, or let it go, to stop them.
public final class StorageObservation: Sendable {
  private let onCancel: Locked<(@Sendable () -> Void)?>

  /// An observation that runs `onCancel` once, when cancelled or released.
  public init(onCancel: @escaping @Sendable () -> Void) {
    self.onCancel = Locked(onCancel)
  }

  /// Stops the reports. Calling it again does nothing.
  public func cancel() {
    let cancel = onCancel.withLock { action -> (@Sendable () -> Void)? in
      defer { action = nil }
      return action
    }
    cancel?()
  }

  deinit { cancel() }
}
