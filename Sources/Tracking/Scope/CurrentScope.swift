import CTrackingSupport

/// The calling thread's tracking scope: the one slot of thread-local state the runtime
/// has, and the only code that reads or writes it.
///
/// **Invariant.** The slot holds exactly one of:
/// - `nil`: no tracking scope and no required region is active on this thread;
/// - ``requiredMarker`` (the address 1, never dereferenced): a region that requires
///   tracking (see `withTrackingRequired`) is active and no tracking scope is;
/// - the address of an ``AccessList`` on this thread's stack, published by
///   ``AccessList/collect(_:)`` for exactly the duration of that call, which restores
///   the previous value on the way out (also when its body throws).
///
/// So a non-`nil`, non-marker value is always a live `AccessList` of this thread, and
/// nothing else may be stored here. Every change of the slot is scoped (set, run a
/// body, restore), so nesting unwinds in order.
///
/// The slot is a C `_Thread_local` with the initial-exec TLS model: reading it is one
/// load from the thread pointer, which is what keeps an untracked read as cheap as a
/// plain property read. Initial-exec TLS is reserved when the program starts; a library
/// loaded later with `dlopen` draws it from the loader's small static-TLS surplus, which
/// one pointer fits in (glibc keeps at least 1 664 bytes spare for this).
@usableFromInline
enum CurrentScope {
  /// The raw slot value. The hot path tests it against `nil` with one load and a branch.
  @inlinable @inline(__always)
  static var raw: UnsafeMutableRawPointer? { tracking_current_scope() }

  /// Whether a read must do more than return its value: `scope` (the slot, as the
  /// caller loaded it) is set, or interop with Apple's Observation is on. One OR and
  /// one branch: what a read outside any scope pays.
  @inlinable @inline(__always)
  static func readNeedsRecording(_ scope: UnsafeMutableRawPointer?) -> Bool {
    readNeedsRecording(scope, interop: tracking_interop_flags())
  }

  /// ``readNeedsRecording(_:)`` with the interop switches as the caller loaded them.
  @inlinable @inline(__always)
  static func readNeedsRecording(_ scope: UnsafeMutableRawPointer?, interop: Int) -> Bool {
    UInt(bitPattern: scope) | UInt(bitPattern: interop) != 0
  }

  /// The marker of a region that requires tracking.
  @inlinable @inline(__always)
  static var requiredMarker: UnsafeMutableRawPointer { tracking_required_marker() }

  /// The access list of the innermost tracking scope, if one is active.
  @inlinable @inline(__always)
  static var accessList: UnsafeMutablePointer<AccessList>? {
    guard let raw, raw != requiredMarker else { return nil }
    return raw.assumingMemoryBound(to: AccessList.self)
  }

  /// Whether a tracking scope is active on this thread.
  @inlinable
  static var isTracking: Bool { accessList != nil }

  /// Runs `body` with the slot set to `value`, then restores the previous value.
  @inlinable @inline(__always)
  static func with<T, Failure: Error>(
    _ value: UnsafeMutableRawPointer?, _ body: () throws(Failure) -> T
  ) throws(Failure) -> T {
    let previous = raw
    tracking_set_current_scope(value)
    defer { tracking_set_current_scope(previous) }
    return try body()
  }
}
