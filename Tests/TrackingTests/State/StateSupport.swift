import Foundation
import Testing
@_spi(Testing) @testable import Tracking

/// A thread-safe list of the events that callbacks record, in order.
final class Events: Sendable {
  private let storage = Locked<[String]>([])

  func callAsFunction(_ event: String) {
    storage.withLock { $0.append(event) }
  }

  var all: [String] { storage.withLock { $0 } }

  func clear() { storage.withLock { $0.removeAll() } }
}

/// The untracked reads of the given types that `body` makes, as reported to
/// ``TrackingDiagnostics``. Handlers are process-wide, and other tests read the same
/// types at the same time: only reports about `types`, made on this thread (a report is
/// made on the reading thread), are kept.
func untrackedReads(of types: Set<String>, during body: () -> Void) -> [UntrackedRead] {
  let reads = Locked<[UntrackedRead]>([])
  let caller = ObjectIdentifier(Thread.current)
  let id = TrackingDiagnostics.addHandler { read in
    guard ObjectIdentifier(Thread.current) == caller, types.contains(read.typeName) else { return }
    reads.withLock { $0.append(read) }
  }
  defer { TrackingDiagnostics.removeHandler(id) }
  body()
  return reads.withLock { $0 }
}
