import CCeiling

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The ceiling study's engine: the push-pull algorithm of issue 33, its graph in
// manually managed memory under one lock, with what a thread-safe product needs: nodes
// and links reclaimed only when no walk can hold them, runs that leave the lock while
// user code computes, one update of a node at a time, the own-writes rule, per-thread
// queues, a thread-local current run, and values of any type behind a node that is not
// generic. README.md beside this file says what it still leaves out.
//
// **Everything in `Node` and `Link` is under the graph lock.** User code runs outside
// it: a computation's closure, an effect's body, the deinit of a released typed side.
// The one exception is a value's `==`, which runs under it, as in the runtime.
//
// **Lifetimes.** A node counts its references: its owner (the handle a user holds),
// each link that names it as a dependency, and each walk that pins it while the lock is
// left (a pull waiting for a recomputation). It is freed when the count reaches zero,
// under the lock. Its typed side (a `NodeBody`: the closures and the value) is a class
// that the node holds strongly until its owner ends it. It is released once the lock is
// left, by the thread running the node if one is.
//
// A link is freed only by its subscriber's run (the links after the run's cursor) or by
// its subscriber's end, both under the lock. A pull that leaves the lock notes the
// subscriber's `epoch`, which each run and each end moves; if it moved, the pull starts
// that subscriber's walk again rather than use the link it noted.

typealias NodeRef = UnsafeMutablePointer<Node>
typealias LinkRef = UnsafeMutablePointer<Link>

/// An edge: `sub`'s latest run read `dep`, at `version`. On two lists: `sub`'s
/// dependencies (in the order of the reads) and `dep`'s subscribers.
struct Link {
  let dep: NodeRef
  let sub: NodeRef
  var version: UInt64
  var nextDep: LinkRef?
  var prevSub: LinkRef?
  var nextSub: LinkRef?
}

enum Kind: UInt8 { case signal, computed, effect }

struct Flags: OptionSet {
  let rawValue: UInt8
  /// A dependency surely changed.
  static let dirty = Flags(rawValue: 1)
  /// A dependency may have changed: pull it before deciding.
  static let pending = Flags(rawValue: 2)
  /// An effect waiting in a thread's queue.
  static let queued = Flags(rawValue: 4)
  static let stale: Flags = [.dirty, .pending]
}

struct Node {
  var flags: Flags
  let kind: Kind
  /// Moves each time the value changes (a signal's write, a recomputation that found a
  /// different value).
  var version: UInt64 = 0
  /// Counts the news of a possible change: a pull that found every input unchanged
  /// makes the node current only if none came while it looked.
  var marks: UInt32 = 0
  /// Moves at each run: a pull that left the lock knows its saved link may be gone.
  var epoch: UInt32 = 0
  /// The owner, the links naming this node as their dependency, the pins.
  var references = 1
  /// The thread running this node's closure, or 0: one update at a time, and the
  /// own-writes rule (a change made by the run itself does not make it stale).
  var runningThread: UInt = 0
  var deps: LinkRef?
  /// The run's cursor: the last link this run read (or kept).
  var depsTail: LinkRef?
  var subs: LinkRef?
  var subsTail: LinkRef?
  /// The typed side, held strongly; `nil` once its owner ended the node.
  var body: Unmanaged<NodeBody>?

  /// Whether a read must pull first: a change reached it, or a run on another thread
  /// is computing it (its flags are clear then, but its version has not moved yet).
  var needsPull: Bool { !flags.isDisjoint(with: .stale) || runningThread != 0 }
}

/// The typed side of a node: what it runs and how it keeps its value, as two closures
/// made where the value's type is known (see Handles.swift), so that they are
/// specialized for it; the graph itself is not generic.
final class NodeBody {
  /// Computes, outside the lock, into a slot of its own.
  let run: () -> Void
  /// Under the lock, right after `run`: keeps the new value, and says whether it
  /// differs from the previous one.
  let commit: () -> Bool
  /// Frees what the closures share, when the body goes.
  private let finish: () -> Void

  init(run: @escaping () -> Void, commit: @escaping () -> Bool, finish: @escaping () -> Void = {}) {
    self.run = run
    self.commit = commit
    self.finish = finish
  }

  deinit { finish() }
}

enum Graph {
  /// The graph lock is a C global: a Swift `static let` would check its one-time
  /// initialization at every use.
  @inline(__always) static func enter() { ceiling_graph_enter() }
  @inline(__always) static func leave() { ceiling_graph_leave() }

  /// A node with one reference, its owner's; it holds `body` strongly until it ends.
  static func makeNode(_ kind: Kind, body: NodeBody?) -> NodeRef {
    let node = NodeRef.allocate(capacity: 1)
    node.initialize(
      to: Node(flags: kind == .signal ? [] : .dirty, kind: kind, body: body.map { Unmanaged.passRetained($0) }))
    return node
  }

  // MARK: Reading (under the lock)

  /// Records that the current run read `dep`: keeps the link at the cursor if it names
  /// `dep` (the same read as the previous run's), else inserts one.
  @inline(__always)
  static func recordRead(_ dep: NodeRef, by sub: NodeRef) {
    let tail = sub.pointee.depsTail
    if let tail, tail.pointee.dep == dep { return }
    let next = tail == nil ? sub.pointee.deps : tail.unsafelyUnwrapped.pointee.nextDep
    if let next, next.pointee.dep == dep {
      next.pointee.version = dep.pointee.version
      sub.pointee.depsTail = next
      return
    }
    insertLink(dep, sub, after: tail, before: next)
  }

  private static func insertLink(_ dep: NodeRef, _ sub: NodeRef, after tail: LinkRef?, before next: LinkRef?) {
    let link = LinkRef.allocate(capacity: 1)
    link.initialize(to: Link(dep: dep, sub: sub, version: dep.pointee.version, nextDep: next))
    if let tail { tail.pointee.nextDep = link } else { sub.pointee.deps = link }
    sub.pointee.depsTail = link
    if let last = dep.pointee.subsTail {
      last.pointee.nextSub = link
      link.pointee.prevSub = last
    } else {
      dep.pointee.subs = link
    }
    dep.pointee.subsTail = link
    dep.pointee.references += 1
  }

  // MARK: Writing (under the lock)

  /// A signal's value changed: its subscribers become dirty, everything further down
  /// pending, each once (a node already stale passes nothing on); effects reached wait
  /// in the writing thread's queue.
  static func propagate(from source: NodeRef, _ thread: ThreadRef) {
    let stackBase = thread.pointee.stack.count
    var link = source.pointee.subs
    var direct = true
    while true {
      while let current = link {
        let sub = current.pointee.sub
        link = current.pointee.nextSub
        // The own-writes rule: the run that made this change does not hear it.
        if sub.pointee.runningThread == thread.pointee.id { continue }
        sub.pointee.marks &+= 1
        let was = sub.pointee.flags
        sub.pointee.flags.insert(direct ? .dirty : .pending)
        guard was.isDisjoint(with: .stale) else { continue }
        if sub.pointee.kind == .effect {
          if !was.contains(.queued) {
            sub.pointee.flags.insert(.queued)
            sub.pointee.references += 1  // the queue's pin
            thread.pointee.effects.push(sub)
          }
        } else if let subs = sub.pointee.subs {
          if let link { thread.pointee.stack.push(link) }
          link = subs
          direct = false
        }
      }
      guard thread.pointee.stack.count > stackBase else { return }
      link = thread.pointee.stack.pop()
      // Everything on the stack is at least one level down.
      direct = false
    }
  }

  // MARK: Pulling (enters and leaves with the lock held; leaves it to run user code)

  /// Brings `root` up to date: a dirty node runs; a pending one pulls the computations it
  /// read, in order, and runs only if one of their versions moved.
  static func pull(_ root: NodeRef, _ thread: ThreadRef) {
    let frameBase = thread.pointee.frames.count
    var node = root
    node.pointee.references += 1  // pinned while the walk may leave the lock
    var link: LinkRef? = nil  // where the walk resumes in `node`'s dependencies; nil: from the start
    var marks: UInt32 = 0
    while true {
      let flags = node.pointee.flags
      if node.pointee.runningThread != 0 && node.pointee.body != nil {
        precondition(
          node.pointee.runningThread != thread.pointee.id,
          "a computation read itself while it was being computed (a cycle)")
        // Another thread is running it: its flags are clear but its value is not stored
        // yet. Wait for that run, then look again.
        leave()
        sched_yield()
        enter()
        continue
      }
      if node.pointee.body == nil || flags.isDisjoint(with: .stale) {
        // Current (or ended): nothing to do.
        node.pointee.flags.subtract(.stale)
      } else if flags.contains(.dirty) {
        run(node, thread)
      } else {
        if link == nil {
          link = node.pointee.deps
          marks = node.pointee.marks
        }
        var outcome = PendingOutcome.unchanged
        while let current = link {
          let dep = current.pointee.dep
          if dep.pointee.kind == .computed && dep.pointee.needsPull {
            outcome = .descend
            break
          }
          if dep.pointee.version != current.pointee.version {
            outcome = .changed
            break
          }
          link = current.pointee.nextDep
        }
        switch outcome {
        case .descend:
          let current = link.unsafelyUnwrapped
          thread.pointee.frames.push(
            PullFrame(node: node, link: current, epoch: node.pointee.epoch, marks: marks))
          node = current.pointee.dep
          node.pointee.references += 1
          link = nil
          continue
        case .changed:
          run(node, thread)
        case .unchanged:
          // Every input kept its version: current, unless news came while the walk
          // looked (then look again from the first input).
          if node.pointee.marks != marks {
            link = nil
            continue
          }
          node.pointee.flags.subtract(.pending)
        }
      }
      // `node` is done: back to the node that waited for it.
      release(node, thread)
      guard thread.pointee.frames.count > frameBase else { return }
      let frame = thread.pointee.frames.pop()
      node = frame.node
      marks = frame.marks
      // Still pinned by the frame. If it ran meanwhile (another thread), its links may
      // be gone: look at it again from the start.
      link = node.pointee.epoch == frame.epoch ? frame.link : nil
    }
  }

  private enum PendingOutcome { case unchanged, changed, descend }

  /// Runs `node`'s closure, outside the lock, with `node` as the thread's current run;
  /// then drops the links the run did not read again and, for a computation, moves its
  /// version if the value changed.
  static func run(_ node: NodeRef, _ thread: ThreadRef) {
    guard let body = node.pointee.body else { return }
    node.pointee.flags.subtract(.stale)
    node.pointee.runningThread = thread.pointee.id
    node.pointee.depsTail = nil
    node.pointee.epoch &+= 1
    let previous = thread.pointee.current
    thread.pointee.current = node
    leave()
    // The node's reference keeps the body alive: an `end` meanwhile leaves it to this
    // run to release.
    body._withUnsafeGuaranteedRef { $0.run() }
    enter()
    thread.pointee.current = previous
    node.pointee.runningThread = 0
    if node.pointee.body == nil {
      // Ended while it ran (see `end`): it keeps no link, and its body goes.
      dropLinks(after: nil, of: node, thread)
      thread.pointee.releases.push(body)
    } else {
      if body._withUnsafeGuaranteedRef({ $0.commit() }) { node.pointee.version &+= 1 }
      // Most runs read what the previous one read: nothing after the cursor.
      if let tail = node.pointee.depsTail {
        if tail.pointee.nextDep != nil { dropLinks(after: tail, of: node, thread) }
      } else if node.pointee.deps != nil {
        dropLinks(after: nil, of: node, thread)
      }
    }
  }

  // MARK: Lifetimes (under the lock)

  /// Unpins, or ends a reference: frees the node when it was the last.
  @inline(__always)
  static func release(_ node: NodeRef, _ thread: ThreadRef) {
    node.pointee.references -= 1
    if node.pointee.references == 0 { free(node, thread) }
  }

  /// Drops `sub`'s dependencies after `tail` (all of them when `tail` is nil).
  static func dropLinks(after tail: LinkRef?, of sub: NodeRef, _ thread: ThreadRef) {
    var rest: LinkRef?
    if let tail {
      rest = tail.pointee.nextDep
      tail.pointee.nextDep = nil
    } else {
      rest = sub.pointee.deps
      sub.pointee.deps = nil
    }
    while let link = rest {
      rest = link.pointee.nextDep
      let dep = link.pointee.dep
      if let previous = link.pointee.prevSub {
        previous.pointee.nextSub = link.pointee.nextSub
      } else {
        dep.pointee.subs = link.pointee.nextSub
      }
      if let next = link.pointee.nextSub {
        next.pointee.prevSub = link.pointee.prevSub
      } else {
        dep.pointee.subsTail = link.pointee.prevSub
      }
      link.deinitialize(count: 1)
      link.deallocate()
      release(dep, thread)
    }
  }

  /// Frees a node nothing refers to any more (a recursion as deep as a chain of nodes
  /// that only the chain kept alive; the runtime would keep a worklist).
  private static func free(_ node: NodeRef, _ thread: ThreadRef) {
    precondition(node.pointee.subs == nil, "a node was freed while a link named it")
    dropLinks(after: nil, of: node, thread)
    node.deinitialize(count: 1)
    node.deallocate()
  }

  /// The owner ends its node: it stops reading (its links go) and is never run again.
  /// The owner's reference is released apart (`release`), when the handle goes: the node
  /// is freed once nothing else names it.
  /// A node that is running (pinned by the walk that runs it) keeps its links until
  /// the run ends, which drops them: the run's cursor is one of them.
  static func end(_ node: NodeRef, _ thread: ThreadRef) {
    guard let body = node.pointee.body else { return }
    node.pointee.body = nil
    node.pointee.flags.subtract(.stale)
    // A pull that left the lock holding one of its links must not use it.
    node.pointee.epoch &+= 1
    if node.pointee.runningThread == 0 {
      dropLinks(after: nil, of: node, thread)
      thread.pointee.releases.push(body)
    }
  }
}

/// A node whose pull waits for one of its inputs: where it waited, and what it was then.
struct PullFrame {
  let node: NodeRef
  let link: LinkRef
  let epoch: UInt32
  let marks: UInt32
}
