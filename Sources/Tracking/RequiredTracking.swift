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

  /// Receives (type name, property description) for each untracked read.
  package static let handler = Locked<(@Sendable (String, String) -> Void)?>(nil)

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
    guard let report = handler.withLock({ $0 }) else { return }
    report(String(describing: Subject.self), String(describing: keyPath))
  }
}
