import CTrackingSupport

/// Where something was started: the `#fileID` and `#line` of the call that started it.
///
/// Kept as the static string the call passed: every observation and derived value is
/// made with one, and only the leak check ever reads it, so it becomes a `String` only
/// when described (made at once, it was an allocation and a copy per node, some 500
/// instructions of the 5 700 that starting an observation costs).
package struct SourceSite: Sendable, CustomStringConvertible {
  package let fileID: StaticString
  package let line: UInt

  package init(fileID: StaticString, line: UInt) {
    self.fileID = fileID
    self.line = line
  }

  package var description: String { "\(fileID):\(line)" }
}

/// The runtime side of the leak check (`TrackingTesting`'s `expectNoLeaks`): records
/// every observation, derived value and scope started while a check is active in the
/// current task (or a task it starts), so that the check can list those still alive
/// when its block ends.
///
/// **Cost when off.** Starting a node reads one relaxed atomic word (the number of
/// active checks); the task-local recorder is read only while some check is
/// active somewhere in the process. Checks in tests that run in parallel each see
/// only their own task's work.
package final class LifetimeRecorder: @unchecked Sendable {
  // `@unchecked Sendable`: `entries` is behind its lock.

  /// What a recorded thing is.
  package enum Kind: Sendable, Hashable {
    case observation, derivedValue, scope
  }

  /// Something started while the check was active, and whether it is still alive.
  struct Entry {
    weak var object: AnyObject?
    let kind: Kind
    let site: SourceSite?
  }

  private let entries = Locked<[Entry]>([])

  /// The recorder of the check the current task runs in.
  @TaskLocal static var current: LifetimeRecorder?

  /// How many checks are active (mirrored in a C atomic for the unlocked test).
  private static let activeChecks = Locked(0)

  package init() {}

  /// Runs `body` with this recorder recording what it starts.
  package func record<T>(
    isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T
  ) async rethrows -> T {
    Self.activate(true)
    defer { Self.activate(false) }
    return try await Self.$current.withValue(self) { try await body() }
  }

  /// The synchronous form of ``record(isolation:_:)``.
  package func record<T>(_ body: () throws -> T) rethrows -> T {
    Self.activate(true)
    defer { Self.activate(false) }
    return try Self.$current.withValue(self) { try body() }
  }

  private static func activate(_ on: Bool) {
    activeChecks.withLock { count in
      count += on ? 1 : -1
      tracking_set_recording_count(count)
    }
  }

  /// Records `object` if a check is active in the current task.
  @inline(__always)
  static func register(_ object: AnyObject, kind: Kind, site: SourceSite?) {
    guard _slowPath(tracking_recording_count() != 0) else { return }
    current?.add(object, kind: kind, site: site)
  }

  private func add(_ object: AnyObject, kind: Kind, site: SourceSite?) {
    entries.withLock { entries in
      entries.append(Entry(object: object, kind: kind, site: site))
    }
  }

  /// What was recorded and is still alive: allocated, and not cancelled or ended.
  var alive: [Entry] {
    entries.withLock { $0 }.filter { entry in
      switch entry.object {
      case let node as ReactiveNode: !node.isCancelled
      case let scope as ScopeOwnership: !scope.isEnded
      default: false
      }
    }
  }

  /// One line per alive entry: what it is, where it was started, what it does.
  package var aliveDescriptions: [String] {
    alive.map { entry in
      let kind =
        switch entry.kind {
        case .observation: "an observation"
        case .derivedValue: "a derived value"
        case .scope: "a TrackingScope"
        }
      let site = entry.site.map { "started at \($0)" } ?? "started by the library"
      return "\(kind) \(site): \(details(of: entry))"
    }
  }

  /// A description of what an alive entry is doing: the name and reads of an
  /// observation or derived value, the number of things a scope owns.
  private func details(of entry: Entry) -> String {
    switch entry.object {
    case let reaction as Reaction:
      let reads = reaction.dependencies.map(\.description)
      return reads.isEmpty ? "reads nothing tracked" : "reads " + reads.joined(separator: ", ")
    case let computation as Computation:
      return "a \(computation.typeName) value"
    case let scope as ScopeOwnership:
      return "owns \(scope.ownedCount) thing(s)"
    default:
      return "released"
    }
  }
}
