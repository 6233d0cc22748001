import Tracking

/// Where a ``Persisted`` model's saving stands — an observable value, so an app can
/// show it (a "not saved" badge, a retry button) and tests can wait for it.
///
/// ```swift
/// observe {
///   switch persisted.status {
///   case .saved, .saving: banner.hide()
///   case .restoring(let error): banner.show("Connecting… \(error.map { "\($0)" } ?? "")")
///   case .failed(let error), .disabled(let error): banner.show("Not saved: \(error)")
///   }
/// }
/// ```
///
/// | status | means | what happens |
/// |---|---|---|
/// | ``restoring(lastError:)`` | the storage could not be read at launch for a reason that may pass (a timeout, a server down or restarting) | retried in the background (50 ms, doubling, at most 2 s apart); nothing is written until it is read; then the stored state is merged into the model |
/// | ``saved`` | every change recorded is stored | — |
/// | ``saving`` | changes wait for the save policy, or are being written | — |
/// | ``failed(_:)`` | the last read at launch or the last write failed | a transient failure is retried in the background; any is retried by the next change, ``Persisted/flush()`` or reconnect; `flush()` throws meanwhile |
/// | ``disabled(_:)`` | saving is off for this run, to keep what is stored (a newer schema version; a value that could be neither read nor moved aside) | `flush()` throws the reason |
///
/// While the status is `restoring`, `failed` or `disabled`, ``Persisted/hasUnsavedChanges``
/// is `true` and ``Persisted/flush()`` throws: saving is never off silently.
public enum PersistenceStatus: Sendable, Equatable, CustomStringConvertible {
  /// The stored value has not been read yet: the storage was unavailable, for a reason
  /// that may pass; retried with backoff. `lastError` is the latest attempt's failure.
  case restoring(lastError: PersistenceError?)
  /// Every change recorded is stored.
  case saved
  /// Changes are waiting for the save policy, or being written.
  case saving
  /// The last attempt failed — reading at launch (a permanent failure, retried at the
  /// next ``Persisted/flush()``) or writing (retried as ``PersistenceStatus`` says).
  case failed(PersistenceError)
  /// Saving is off for this run; the reason.
  case disabled(PersistenceError)

  /// Whether changes reach the storage (now or as the save policy says).
  public var isHealthy: Bool {
    switch self {
    case .saved, .saving: true
    case .restoring, .failed, .disabled: false
    }
  }

  /// `saved`, `saving`, `failed: …`, ….
  public var description: String {
    switch self {
    case .restoring(let error?): "restoring (\(error))"
    case .restoring(nil): "restoring"
    case .saved: "saved"
    case .saving: "saving"
    case .failed(let error): "failed: \(error)"
    case .disabled(let error): "disabled: \(error)"
    }
  }

  /// Equal cases are equal when their errors say the same (``PersistenceError`` is not
  /// `Equatable`: it carries other libraries' errors).
  public static func == (lhs: PersistenceStatus, rhs: PersistenceStatus) -> Bool {
    switch (lhs, rhs) {
    case (.saved, .saved), (.saving, .saving): true
    case (.restoring(let a), .restoring(let b)): a?.description == b?.description
    case (.failed(let a), .failed(let b)), (.disabled(let a), .disabled(let b)): a.description == b.description
    default: false
    }
  }
}

/// Holds a ``Persisted``'s status, so that reading it is tracked like a property.
@Trackable final class StatusCell {
  var value: PersistenceStatus

  init(_ value: PersistenceStatus) {
    self.value = value
  }
}
