import CTrackingSupport

/// A node's two parts of state in one allocation: its ``NodeState`` with the lock that
/// guards it, and its ``GraphNode``, which the graph lock guards. They were two heap
/// blocks; every observation and derived value made paid for both (an allocation and
/// a free are about a third of what making and ending an observation costs).
///
/// It is ``Locked``'s buffer with one more field after the lock, written out rather
/// than made generic: a `LockedBuffer` generic over a trailing field was tried, and the
/// optimizer then inlined less on the pull's path (about 2 % more instructions on the
/// Kairo cases and `derived.diamond`).
///
/// The two parts keep their own locks: sharing memory changes nothing of who may touch
/// what. The graph node's address is fixed for the node's life, as the graph needs
/// (links and walks name nodes by address).
///
/// **Lifetime.** The owning ``ReactiveNode`` initializes the graph node right after its
/// own `init` (the graph node names its owner, which must exist first) and
/// deinitializes it in its `deinit`; the memory itself goes with the last reference to
/// the buffer, the node's. `@unchecked Sendable`: the state is reached only through
/// ``withLock(_:)``, the graph node only under the graph lock.
struct NodeMemory: @unchecked Sendable {
  private let buffer: Buffer

  /// The node's place in the reactive graph, not initialized yet.
  let graph: GraphRef

  /// Memory holding `state`, under a new lock, and room for the graph node.
  init(_ state: @autoclosure () -> NodeState) {
    buffer = Buffer.make(state)
    graph = buffer.withUnsafeMutablePointerToElements { $0.pointer(to: \.graph).unsafelyUnwrapped }
  }

  /// Runs `body` with exclusive access to the node's state.
  @inline(__always)
  func withLock<R, Failure: Error>(_ body: (inout NodeState) throws(Failure) -> R) throws(Failure) -> R {
    try buffer.withLock(body)
  }

  /// The memory after the state: the lock, then the graph node. The lock comes first:
  /// ``Buffer/lock(_:)`` finds it at the start, without a key path (which a debug build
  /// would evaluate at every lock).
  struct Tail {
    var lock: tracking_lock
    var graph: GraphNode
  }

  final class Buffer: ManagedBuffer<NodeState, Tail> {
    static func make(_ state: () -> NodeState) -> Buffer {
      let buffer = unsafeDowncast(Buffer.create(minimumCapacity: 1) { _ in state() }, to: Buffer.self)
      buffer.withUnsafeMutablePointerToElements { tail in
        let lock = Buffer.lock(tail)
        assert(tail.pointer(to: \.lock) == lock, "The lock is not at the start of a node's tail memory.")
        lock.initialize(to: tracking_lock())
        tracking_lock_init(lock)
      }
      return buffer
    }

    deinit {
      // The graph node was deinitialized by its owner.
      withUnsafeMutablePointerToElements { tail in
        let lock = Buffer.lock(tail)
        tracking_lock_destroy(lock)
        _ = lock.deinitialize(count: 1)
      }
    }

    /// The lock in `tail`: its first field.
    @inline(__always)
    static func lock(_ tail: UnsafeMutablePointer<Tail>) -> UnsafeMutablePointer<tracking_lock> {
      UnsafeMutableRawPointer(tail).assumingMemoryBound(to: tracking_lock.self)
    }

    /// The lock is reached through a pointer rather than `header`, whose accessors
    /// would add a run-time exclusivity check (as in ``LockedBuffer``).
    @inline(__always)
    func withLock<R, Failure: Error>(_ body: (inout NodeState) throws(Failure) -> R) throws(Failure) -> R {
      try withUnsafeMutablePointers { (state, tail) throws(Failure) -> R in
        let lock = Buffer.lock(tail)
        tracking_lock_lock(lock)
        defer { tracking_lock_unlock(lock) }
        return try body(&state.pointee)
      }
    }
  }
}
