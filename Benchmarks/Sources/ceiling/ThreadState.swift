import CCeiling

typealias ThreadRef = UnsafeMutablePointer<ThreadState>

/// What the graph keeps per thread, in a thread-local slot: the run under way (whose
/// reads are recorded), the effects its writes reached, and the scratch stacks of a walk.
/// Only its own thread touches it; `effects` is changed under the graph lock.
struct ThreadState {
  /// A number unique among running threads (this state's address).
  var id: UInt = 0
  /// The node whose closure this thread is running, or nil.
  var current: NodeRef?
  /// Effects reached by this thread's writes, pinned, in the order they were reached.
  var effects = Stack<NodeRef>()
  /// More than 0 inside a batch: effects wait for its end.
  var batchDepth = 0
  /// A propagation's links still to visit.
  var stack = Stack<LinkRef>()
  /// A pull's nodes waiting for an input.
  var frames = Stack<PullFrame>()
  /// Typed sides of ended nodes, to release once the lock is left (their deinit runs
  /// user code).
  var releases = Stack<Unmanaged<NodeBody>>()

  /// The calling thread's state. Made at the thread's first use and never freed: the
  /// study's threads are few (the runtime would free it in a thread-exit destructor).
  @inline(__always) static var current: ThreadRef {
    if let state = ceiling_thread_state_get() { return state.assumingMemoryBound(to: ThreadState.self) }
    return make()
  }

  private static func make() -> ThreadRef {
    let state = ThreadRef.allocate(capacity: 1)
    state.initialize(to: ThreadState())
    state.pointee.id = UInt(bitPattern: state)
    ceiling_thread_state_set(state)
    return state
  }
}

extension Graph {
  /// Leaves the lock, releases the typed sides of ended nodes, and runs the effects this thread's
  /// writes reached, unless a batch is open.
  @inline(__always)
  static func leaveAndFlush(_ thread: ThreadRef) {
    leave()
    if !thread.pointee.releases.isEmpty { releaseBodies(thread) }
    if !thread.pointee.effects.isEmpty && thread.pointee.batchDepth == 0 { drain(thread) }
  }

  static func releaseBodies(_ thread: ThreadRef) {
    while !thread.pointee.releases.isEmpty { thread.pointee.releases.pop().release() }
  }

  /// Runs the waiting effects, each once, in the order they were reached; effects that
  /// their runs' writes reach run in the same loop.
  static func drain(_ thread: ThreadRef) {
    thread.pointee.batchDepth += 1
    var next = 0
    while true {
      enter()
      guard next < thread.pointee.effects.count else {
        thread.pointee.effects.removeAll()
        leave()
        break
      }
      let effect = thread.pointee.effects[next]
      next += 1
      effect.pointee.flags.subtract(.queued)
      pull(effect, thread)
      release(effect, thread)  // the queue's pin
      leave()
      if !thread.pointee.releases.isEmpty { releaseBodies(thread) }
    }
    thread.pointee.batchDepth -= 1
  }

  /// A handle goes: its node ends, and the handle's reference to it is released.
  static func dispose(_ node: NodeRef) {
    let thread = ThreadState.current
    enter()
    end(node, thread)
    release(node, thread)
    leaveAndFlush(thread)
  }

  /// Runs `body` as one batch: effects run once, at its end.
  static func batch<R>(_ body: () -> R) -> R {
    let thread = ThreadState.current
    thread.pointee.batchDepth += 1
    let result = body()
    thread.pointee.batchDepth -= 1
    if thread.pointee.batchDepth == 0 && !thread.pointee.effects.isEmpty { drain(thread) }
    return result
  }
}

/// A stack of plain values (pointers) in memory of its own: an array kept in a
/// thread's state would check that its buffer is unique at every push.
struct Stack<Element> {
  private var base = UnsafeMutablePointer<Element>.allocate(capacity: 16)
  private var capacity = 16
  private(set) var count = 0

  var isEmpty: Bool { count == 0 }

  @inline(__always) mutating func push(_ element: Element) {
    if count == capacity { grow() }
    (base + count).initialize(to: element)
    count += 1
  }

  @inline(__always) mutating func pop() -> Element {
    count -= 1
    return (base + count).move()
  }

  subscript(position: Int) -> Element { base[position] }

  /// Forgets every element (plain values: nothing to destroy).
  mutating func removeAll() { count = 0 }

  private mutating func grow() {
    let bigger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
    bigger.moveInitialize(from: base, count: count)
    base.deallocate()
    base = bigger
    capacity *= 2
  }
}
