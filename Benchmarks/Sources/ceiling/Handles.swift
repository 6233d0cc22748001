// What a user holds: a signal (a tracked property), a computed value (`Derived`), an
// effect (`observe`). Each owns its node and ends it when released or cancelled. The
// typed side of a computation or an effect (its closure and values) is a `NodeBody` that
// the node holds, so that a run on another thread never needs the handle.

final class Signal<Value: Equatable>: @unchecked Sendable {
  // `@unchecked Sendable`: the value is read and written under the graph lock.
  let node: NodeRef
  private let slot: UnsafeMutablePointer<Value>

  init(_ value: Value) {
    slot = .allocate(capacity: 1)
    slot.initialize(to: value)
    node = Graph.makeNode(.signal, body: nil)
  }

  var value: Value {
    get {
      let thread = ThreadState.current
      Graph.enter()
      if let sub = thread.pointee.current { Graph.recordRead(node, by: sub) }
      let value = slot.pointee
      Graph.leave()
      return value
    }
    set {
      let thread = ThreadState.current
      Graph.enter()
      if slot.pointee != newValue {
        slot.pointee = newValue
        node.pointee.version &+= 1
        Graph.propagate(from: node, thread)
      }
      Graph.leaveAndFlush(thread)
    }
  }

  deinit {
    Graph.dispose(node)
    slot.deinitialize(count: 1)
    slot.deallocate()
  }
}

/// A computed value: lazy, cached, and cut off when a recomputation yields an equal value.
final class Computed<Value: Equatable>: @unchecked Sendable {
  // `@unchecked Sendable`: the cache is read under the graph lock.
  let node: NodeRef
  /// The value, once computed; under the graph lock. The handle keeps the body, which
  /// frees it, alive.
  private let cache: UnsafeMutablePointer<Value>
  private let body: NodeBody

  /// Specialized for `Value` where it is called (the runtime's would be `@inlinable`):
  /// the closures it makes compute, compare and move values with no generic code.
  init(_ compute: @escaping () -> Value) {
    let cache = UnsafeMutablePointer<Value>.allocate(capacity: 1)
    // Where a run computes; used by the one thread running the node.
    let staging = UnsafeMutablePointer<Value>.allocate(capacity: 1)
    let hasCache = UnsafeMutablePointer<Bool>.allocate(capacity: 1)
    hasCache.initialize(to: false)
    self.cache = cache
    body = NodeBody(
      run: { staging.initialize(to: compute()) },
      commit: {
        guard hasCache.pointee else {
          cache.moveInitialize(from: staging, count: 1)
          hasCache.pointee = true
          return true
        }
        if cache.pointee == staging.pointee {
          staging.deinitialize(count: 1)
          return false
        }
        cache.pointee = staging.move()
        return true
      },
      finish: {
        if hasCache.pointee { cache.deinitialize(count: 1) }
        cache.deallocate()
        staging.deallocate()
        hasCache.deallocate()
      })
    node = Graph.makeNode(.computed, body: body)
  }

  var value: Value {
    let thread = ThreadState.current
    Graph.enter()
    if node.pointee.needsPull { Graph.pull(node, thread) }
    if let sub = thread.pointee.current { Graph.recordRead(node, by: sub) }
    let value = cache.pointee
    Graph.leaveAndFlush(thread)
    return value
  }

  deinit { Graph.dispose(node) }
}

/// An effect: runs its closure now, and again after each change of what it read.
final class Effect: @unchecked Sendable {
  // `@unchecked Sendable`: its node is under the graph lock.
  let node: NodeRef

  init(_ body: @escaping () -> Void) {
    node = Graph.makeNode(.effect, body: NodeBody(run: body, commit: { false }))
    let thread = ThreadState.current
    Graph.enter()
    Graph.pull(node, thread)
    Graph.leaveAndFlush(thread)
  }

  /// Stops it: it does not run again, and stops reading. (A run under way on another
  /// thread finishes.)
  func cancel() {
    let thread = ThreadState.current
    Graph.enter()
    Graph.end(node, thread)
    Graph.leaveAndFlush(thread)
  }

  deinit { Graph.dispose(node) }
}
