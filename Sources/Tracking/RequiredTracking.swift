import CTrackingSupport

/// The runtime side of untracked-access diagnostics: a thread can be marked as running
/// code that must be tracked (a view body, a render function), and a tracked property
/// read there while no tracking scope is active is reported.
///
/// The mark is a sentinel value in the thread-local scope pointer, so reads outside
/// any marked region pay nothing, and reads inside a real tracking scope pay one
/// comparison. Reporting is left to a handler, which the `TrackingDiagnostics` module
/// installs (and which is only consulted in debug builds of that module).
@usableFromInline
package enum RequiredTracking {
  /// Stands in the thread-local scope slot while a region requires tracking but no
  /// scope is active. Never dereferenced; a constant, so checks fold to one compare.
  @inlinable
  static var marker: UnsafeMutableRawPointer { tracking_required_marker() }

  /// A receiver of (type name, property description) for each untracked read.
  package typealias Handler = @Sendable (String, String) -> Void

  /// The registered handlers by registration number. Registration is additive, so
  /// independent clients (the diagnostics module, a test) never displace each other.
  private static let handlers = Locked<(next: Int, all: [Int: Handler])>((0, [:]))

  /// Registers `handler`; returns the number that ``removeHandler(_:)`` takes.
  @discardableResult
  package static func addHandler(_ handler: @escaping Handler) -> Int {
    handlers.withLock { state in
      defer { state.next += 1 }
      state.all[state.next] = handler
      return state.next
    }
  }

  /// Whether any handler is registered.
  package static var hasHandlers: Bool { handlers.withLock { !$0.all.isEmpty } }

  /// Sends one untracked read to every registered handler.
  package static func report(type: String, property: String) {
    let all = handlers.withLock { Array($0.all.values) }
    for handler in all { handler(type, property) }
  }

  /// Removes a handler registered with ``addHandler(_:)``.
  package static func removeHandler(_ id: Int) {
    handlers.withLock { _ = $0.all.removeValue(forKey: id) }
  }

  /// Runs `body` with the thread marked as requiring tracking, unless a tracking scope
  /// is already active (then reads are tracked and there is nothing to report).
  package static func run<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
    let previous = tracking_current_scope()
    guard previous == nil else { return try body() }
    tracking_set_current_scope(marker)
    defer { tracking_set_current_scope(previous) }
    return try body()
  }

  @usableFromInline @inline(never)
  package static func reportUntrackedRead<Subject, Member>(_ subject: Subject, _ keyPath: KeyPath<Subject, Member>) {
    guard hasHandlers else { return }
    report(type: String(describing: Subject.self), property: String(describing: keyPath))
  }
}
