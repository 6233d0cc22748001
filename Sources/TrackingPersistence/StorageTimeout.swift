import Foundation  // and with it the C library's errno values

/// A storage gave up waiting — for a lock another process holds, a busy database, a
/// server that doesn't answer — after its ``PersistenceStorage/timeout``.
///
/// Nothing was changed by the call that timed out. ``Persisted`` treats it as a
/// transient failure: it retries with backoff (see ``PersistenceStatus``). A storage of
/// your own can throw it for the same treatment.
public struct StorageTimeout: Error, Sendable, CustomStringConvertible {
  /// What the call waited for, in words: "the lock file /…/.scene.json.lock", ….
  public let waitingFor: String
  /// How long it waited, in seconds.
  public let seconds: Double

  /// A timeout after `seconds` waiting for `waitingFor`.
  public init(waitingFor: String, seconds: Double) {
    self.waitingFor = waitingFor
    self.seconds = seconds
  }

  /// "timed out after 5 s waiting for …".
  public var description: String {
    "timed out after \(seconds.formatted) s waiting for \(waitingFor)"
  }
}

extension Double {
  /// `5`, `0.25`: seconds without a trailing `.0`.
  var formatted: String {
    self == rounded() && abs(self) < 1e15 ? String(Int64(self)) : String(self)
  }
}

/// Whether `error` may go away by itself, so that retrying later (with backoff) makes
/// sense: a timeout, a server that refused or dropped the connection or is starting up,
/// a lock held by someone else. Anything else (a permission, a path that is a
/// directory, a table of the wrong shape, a refused login) is permanent until someone
/// fixes it: it is retried only when asked (the next change, ``Persisted/flush()``).
func isTransientFailure(_ error: any Error) -> Bool {
  switch error {
  case is StorageTimeout:
    return true
  case let failure as POSIXFailure:
    return transientErrnos.contains(failure.code)
  case let error as PersistenceError:
    switch error {
    case .readFailed(let underlying), .writeFailed(let underlying): return isTransientFailure(underlying)
    default: return false
    }
  default:
    if let transient = (error as? any TransientClassifiable)?.isTransient { return transient }
    let error = error as NSError
    if error.domain == NSPOSIXErrorDomain { return transientErrnos.contains(Int32(error.code)) }
    if let underlying = error.userInfo[NSUnderlyingErrorKey] as? any Error { return isTransientFailure(underlying) }
    return false
  }
}

/// The `errno` values that say "try again later".
private let transientErrnos: Set<Int32> = [EAGAIN, EWOULDBLOCK, EINTR, EBUSY, ETIMEDOUT, ENOLCK, ETXTBSY]

/// An error of this module's storages that knows whether it is transient (see
/// ``isTransientFailure(_:)``).
protocol TransientClassifiable {
  var isTransient: Bool { get }
}
