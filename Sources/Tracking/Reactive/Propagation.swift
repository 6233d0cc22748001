import CTrackingSupport

/// The push half of push-then-pull (see ``ReactiveNode``): a change marks what depends
/// on it, once per node, under the graph lock. Computations are marked in place; what
/// must be called (a reaction to tell, a value that nobody observes any more) goes into
/// the walk's ``GraphWork``.
extension Graph {
  /// A write of the property of `source`, in its did-set: moves the source's version and
  /// reaches its subscribers, in the order they first read it. A computation is made
  /// dirty in place (``markStale(_:dirty:thread:work:)``, which passes the change on);
  /// a reaction, or a computation that records the causes of its runs, is told of the
  /// write with its description once the locks are left. Subscribers that hear no
  /// did-sets (a reaction to deallocations only) are passed over.
  @inline(__always)
  static func propagateWrite(from source: GraphRef, thread: UInt, work: inout GraphWork) {
    source.pointee.version &+= 1
    var link = source.pointee.subs
    while let current = link {
      link = current.pointee.nextSub
      let sub = current.pointee.sub
      guard sub.pointee.hearsDidSet, !sub.pointee.cancelled else { continue }
      work.order = current.pointee.order
      if sub.pointee.isToldOfSources {
        work.tellOfWrite(sub)
      } else {
        markStale(sub, dirty: true, thread: thread, work: &work)
      }
    }
  }

  /// The subscribers of `source` that hear will-sets, to tell of a will-set of its
  /// property once the locks are left.
  static func collectWillSetHearers(of source: GraphRef, work: inout GraphWork) {
    guard source.pointee.willSetSubscribers != 0 else { return }
    var link = source.pointee.subs
    while let current = link {
      link = current.pointee.nextSub
      let sub = current.pointee.sub
      guard sub.pointee.hearsWillSet && !sub.pointee.cancelled else { continue }
      work.order = current.pointee.order
      work.tellOfWrite(sub)
    }
  }

  /// Marks `node` stale (dirty, or pending) under the graph lock and, if it was
  /// current, passes the change on (see ``Computation/becomeStale(dirty:deferred:)``).
  /// A node that is cancelled, or running on this thread (its own write), hears
  /// nothing. Also how a write marks the derived values that read the property
  /// (``propagateWrite(from:thread:work:)``).
  @inline(__always)
  static func markStale(_ node: GraphRef, dirty: Bool, thread: UInt, work: inout GraphWork) {
    guard !node.pointee.cancelled && node.pointee.runningThread != thread else { return }
    node.pointee.staleMarks &+= 1
    if dirty { node.pointee.appleInFlight = node.pointee.appleInFlight && work.deferred }
    let wasStale = node.pointee.isStale
    if dirty { node.pointee.dirty = true } else { node.pointee.pending = true }
    if !wasStale {
      propagate(from: node, thread: thread, work: &work)
    } else if _slowPath(tracking_graph_unsettled_runs() != 0) {
      propagateThroughStale(from: node, wasStale: true, thread: thread, work: &work)
    }
  }

  /// Passes a change on from `root`, a computation that just became stale, to
  /// everything downstream: depth-first, with a stack of its own (graphs can be
  /// thousands of computations deep), each computation once. The computations reached
  /// that were current become pending; the reactions reached are told once the lock is
  /// left, and so are computations that nobody observes any more (they retire) and
  /// those that announce their changes. A stale computation passes nothing on, unless
  /// a run's inputs are unsettled (see "Passing through stale values" below).
  private static func propagate(from root: GraphRef, thread: UInt, work: inout GraphWork) {
    if _slowPath(tracking_graph_unsettled_runs() != 0) {
      propagateThroughStale(from: root, wasStale: false, thread: thread, work: &work)
      return
    }
    walk(from: root, wasStale: false, throughStale: false, thread: thread, work: &work)
  }

  /// The walk of ``propagate(from:thread:work:)``. Unless `throughStale`, it stops at
  /// stale computations. Otherwise it passes through them too, each once, leaving
  /// their flags as they are: it marks each computation it reaches
  /// (``GraphNode/walkMark``), and clears the marks before it returns. Those it passed
  /// through were found unobserved or announced when they became stale, and are not
  /// again; so is the root if `wasStale`. Inlined into its two callers, each with its
  /// own branches.
  @inline(__always)
  private static func walk(from root: GraphRef, wasStale: Bool, throughStale: Bool, thread: UInt, work: inout GraphWork) {
    var marked = SmallList<GraphRef>()
    if throughStale {
      root.pointee.walkMark = wasStale ? .passedThrough : .reached
      marked.append(root)
    }
    var stack = SmallList<GraphRef>()
    var next: GraphRef? = root
    while let node = next {
      // (One passed through was seen to when it became stale.)
      if !throughStale || node.pointee.walkMark == .reached {
        if node.pointee.subs == nil {
          // Nobody subscribes to it any more: it retires, unless a one-shot tracking
          // observes it (only one that announces can have one).
          work.unobserved(node)
        } else if node.pointee.announces {
          work.announce(node)
        }
      }
      var link = node.pointee.subs
      while let current = link {
        link = current.pointee.nextSub
        let sub = current.pointee.sub
        guard sub.pointee.isComputation else {
          if sub.pointee.running { noteIgnoredOwnMark(sub) }
          work.tell(sub, of: node)
          continue
        }
        // A computation that is gone hears nothing; nor, by the own-writes rule, one
        // whose run on this thread made the change. That run brings `node` up to date
        // when it ends, or `node` would stay stale and pass no later change on to it.
        if sub.pointee.cancelled { continue }
        if sub.pointee.runningThread == thread {
          noteIgnoredOwnMark(sub)
          continue
        }
        // A stale one passes nothing on, but counts the news: a pull of it under way on
        // another thread may have looked at this input before it changed, and must
        // look again before it clears `pending`.
        sub.pointee.staleMarks &+= 1
        if sub.pointee.isStale {
          guard throughStale, sub.pointee.walkMark == .none else { continue }
          sub.pointee.walkMark = .passedThrough
          marked.append(sub)
        } else {
          sub.pointee.pending = true
          if throughStale {
            sub.pointee.walkMark = .reached
            marked.append(sub)
          }
        }
        stack.append(sub)
      }
      next = stack.popLast()
    }
    stack.deallocate()
    if throughStale { marked.forEach { $0.pointee.walkMark = .none } }
    marked.deallocate()
  }

  // MARK: Passing through stale values

  // A stale computation passes nothing on: whatever depends on it was told when it
  // became stale, and reads it anew before it acts. The own-writes rule breaks that: a
  // run that reads a computation, then writes one of its inputs, is told and ignores
  // it. The computation stays stale, and another thread's change of its inputs,
  // made after the run's read, would stop there: the run would neither run again nor
  // read it. So, from the moment such a run notes it (``noteIgnoredOwnMark(_:)``) until
  // its end has brought its inputs up to date (``ReactiveNode/settleInputs()``), every
  // change passes on through stale computations too, each once per walk. What it
  // reaches hears a change that it may have heard already, which costs a look and no
  // more: a stale reaction stays stale, a stale computation stays stale.

  /// Notes that `sub`'s run under way ignored, or may ignore, a change of a computation
  /// it read (see ``GraphNode/ignoredOwnMark``): until its end settles its inputs,
  /// changes pass through stale computations. A reaction that is told of a change while
  /// it runs is noted here, under the lock, whichever thread made the change: whether
  /// the change is the run's own is known only once the lock is left, and another
  /// thread's change made meanwhile must not stop at the stale computation.
  @inline(__always)
  static func noteIgnoredOwnMark(_ sub: GraphRef) {
    guard !sub.pointee.ignoredOwnMark else { return }
    sub.pointee.ignoredOwnMark = true
    tracking_graph_add_unsettled_run()
  }

  /// The end of what ``noteIgnoredOwnMark(_:)`` began: the run's inputs are up to date.
  static func settledInputs() {
    withLock { tracking_graph_remove_unsettled_run() }
  }

  /// ``propagate(from:thread:work:)`` while a run's inputs are unsettled: a walk that
  /// passes through stale computations too.
  @inline(never)
  private static func propagateThroughStale(from root: GraphRef, wasStale: Bool, thread: UInt, work: inout GraphWork) {
    walk(from: root, wasStale: wasStale, throughStale: true, thread: thread, work: &work)
  }
}
