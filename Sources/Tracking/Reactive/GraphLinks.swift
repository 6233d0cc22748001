import CTrackingSupport

/// Making and dropping the graph's links (see ``Graph``, "Edges"): a run reads
/// through a cursor over its node's links, and its end drops those it did not read.
/// Everything here is called with the graph lock held; what must wait until it is left
/// goes into a ``GraphWork``. (What the links show when asked is in Introspection.swift.)
extension Graph {
  /// Records that `sub`'s run under way read `dep` at `version` (under the lock, in
  /// the critical section of the read itself, so that no change falls between the read
  /// and the link). `first`: the run's first read of a computation, which starts the
  /// cursor.
  ///
  /// A run that reads what the previous one read, in the same order, moves the cursor
  /// along the links it has: no link is made, none freed, nothing retained. A read the
  /// run made already (earlier in this run) changes nothing: the first read's version
  /// is the one a pull compares with.
  @inline(__always)
  static func recordRead(_ dep: GraphRef, by sub: GraphRef, version: UInt64, first: Bool, work: inout GraphWork) {
    guard let tail = cursor(of: sub, first: first, expecting: dep) else { return }
    recordRead(dep, by: sub, version: version, after: tail, work: &work)
  }

  /// The start of ``recordRead(_:by:version:first:work:)``: the cursor of `sub`'s run
  /// (started if `first`), or `nil` when the read of `dep` is the one the run made just
  /// before (the cursor stands on its link), which leaves everything as it is.
  @inline(__always)
  static func cursor(of sub: GraphRef, first: Bool, expecting dep: GraphRef) -> LinkRef?? {
    if first {
      sub.pointee.running = true
      sub.pointee.depsTail = nil
    }
    let tail = sub.pointee.depsTail
    if let tail, tail.pointee.dep == dep { return nil }
    return .some(tail)
  }

  /// The rest of ``recordRead(_:by:version:first:work:)``, from the run's cursor `tail`
  /// (``cursor(of:first:expecting:)``).
  @inline(__always)
  static func recordRead(
    _ dep: GraphRef, by sub: GraphRef, version: UInt64, after tail: LinkRef?, work: inout GraphWork
  ) {
    let next = tail == nil ? sub.pointee.deps : tail.unsafelyUnwrapped.pointee.nextDep
    if let next, next.pointee.dep == dep {
      next.pointee.version = version
      sub.pointee.depsTail = next
      return
    }
    recordNewRead(dep, by: sub, version: version, after: tail, before: next, work: &work)
  }

  /// The part of ``recordRead(_:by:version:first:work:)`` a read of a tracked property
  /// makes before its source is looked up: whether the cursor expects a read of
  /// property `id` of the object whose storage is at `storage` (see
  /// ``followCursor(of:first:to:)``).
  @inline(__always)
  static func recordExpectedSourceRead(
    _ storage: UnsafeMutableRawPointer, _ id: Int, by sub: GraphRef, first: Bool
  ) -> Bool {
    followCursor(of: sub, first: first) { $0.pointee.isSource(of: storage, id) }
  }

  /// Whether `sub`'s run under way reads, now, a node its cursor expects (`expected`
  /// says which): the one it read just before (nothing to do), or the next link of the
  /// previous run's, which the cursor moves to, with the node's version as the one
  /// read. `first`: the run's first read, which starts the cursor at the first link.
  /// Returns `false`, having changed nothing, for any other read: the caller records
  /// it the full way (``recordRead(_:by:version:first:work:)``). The one short path of
  /// a run's reads, for tracked properties and derived values alike.
  @inline(__always)
  static func followCursor(of sub: GraphRef, first: Bool, to expected: (GraphRef) -> Bool) -> Bool {
    var next = sub.pointee.deps
    if !first, let tail = sub.pointee.depsTail {
      if expected(tail.pointee.dep) { return true }
      next = tail.pointee.nextDep
    }
    guard let next, expected(next.pointee.dep) else { return false }
    next.pointee.version = next.pointee.dep.pointee.version
    sub.pointee.depsTail = next
    if first { sub.pointee.running = true }
    return true
  }

  /// Past this many reads, a run that reads a computation the cursor did not expect
  /// looks it up in an index of what it read (``GraphNode/readIndex``) rather than
  /// scanning its links: the first run of a sum over thousands of values would
  /// otherwise take a time quadratic in their number.
  static let readIndexThreshold = 32

  /// ``recordRead(_:by:version:first:work:)`` when the read is not the one the cursor
  /// expected: a read this run made already (nothing to do), a link of the previous
  /// run further on (moved to the cursor), or a new link. So each computation has one
  /// link at most, before the cursor when this run read it.
  private static func recordNewRead(
    _ dep: GraphRef, by sub: GraphRef, version: UInt64, after tail: LinkRef?, before next: LinkRef?,
    work: inout GraphWork
  ) {
    if tail != nil, alreadyRead(dep, by: sub, upTo: tail.unsafelyUnwrapped) { return }
    sub.pointee.relinked = true
    var link: LinkRef
    if let moved = takeLink(to: dep, of: sub, after: next) {
      link = moved
      link.pointee.version = version
    } else {
      link = makeLink(from: sub, to: dep, version: version, work: &work)
    }
    link.pointee.nextDep = next
    if let tail { tail.pointee.nextDep = link } else { sub.pointee.deps = link }
    sub.pointee.depsTail = link
  }

  /// Whether `sub`'s run under way read `dep` already: its links up to the cursor
  /// (`tail`) name it. Scanned while they are few; past ``readIndexThreshold``, the
  /// run's index is made from them, and brought up to the cursor at each later
  /// lookup. (The links before the cursor only grow during a run, at the cursor: a
  /// read the cursor expected costs the index nothing.)
  private static func alreadyRead(_ dep: GraphRef, by sub: GraphRef, upTo tail: LinkRef) -> Bool {
    if let index = sub.pointee.readIndex {
      var link = index.pointee.last
      while link != tail {
        link = link.pointee.nextDep.unsafelyUnwrapped
        index.pointee.read.insert(link.pointee.dep)
      }
      index.pointee.last = tail
      return index.pointee.read.contains(dep)
    }
    var count = 0
    var link = sub.pointee.deps
    while let current = link {
      if current.pointee.dep == dep { return true }
      count += 1
      if current == tail { break }
      link = current.pointee.nextDep
    }
    if count >= readIndexThreshold {
      var read = Set<GraphRef>(minimumCapacity: 2 * count)
      link = sub.pointee.deps
      while let current = link {
        read.insert(current.pointee.dep)
        if current == tail { break }
        link = current.pointee.nextDep
      }
      let index = UnsafeMutablePointer<ReadIndex>.allocate(capacity: 1)
      index.initialize(to: ReadIndex(read: read, last: tail))
      sub.pointee.readIndex = index
    }
    return false
  }

  /// Frees `node`'s read index, if it has one: when its run ends, and when the node
  /// goes.
  @inline(never)
  static func freeReadIndex(of node: GraphRef) {
    guard let index = node.pointee.readIndex else { return }
    // A set of pointers: freeing it runs no node's deinit.
    index.deinitialize(count: 1)
    index.deallocate()
    node.pointee.readIndex = nil
  }

  /// Takes `sub`'s link to `dep` out of the dependency list that goes on after
  /// `first` (whose own computation is not `dep`), if there is one. (The run has not
  /// read `dep` yet, so a link of `sub`'s to it is in that list.)
  ///
  /// The list is scanned together with `dep`'s subscribers, a step of each in turn:
  /// the subscribers show sooner that there is no such link when `dep` has few of
  /// them (a run that reads other values than the previous one, thousands of them).
  private static func takeLink(to dep: GraphRef, of sub: GraphRef, after first: LinkRef?) -> LinkRef? {
    guard var previous = first, var subscriber = dep.pointee.subs else { return nil }
    var linked = false
    while let link = previous.pointee.nextDep {
      if link.pointee.dep == dep {
        previous.pointee.nextDep = link.pointee.nextDep
        return link
      }
      previous = link
      if !linked {
        if subscriber.pointee.sub == sub {
          linked = true
        } else if let next = subscriber.pointee.nextSub {
          subscriber = next
        } else {
          return nil
        }
      }
    }
    return nil
  }

  /// Ends `sub`'s run: drops the links the run did not read (all of them if it read
  /// nothing, or if the node was cancelled meanwhile). A run that ignored its own
  /// change of a computation it read (``GraphNode/ignoredOwnMark``) leaves `work` to
  /// bring its inputs up to date once the lock is left (``ReactiveNode/settleInputs()``).
  /// Inlined for the common end, a run that read what the previous one read, up to its
  /// last link, and noted nothing else.
  @inline(__always)
  static func endRun(of sub: GraphRef, work: inout GraphWork) {
    if sub.pointee.running, let tail = sub.pointee.depsTail, tail.pointee.nextDep == nil,
      !sub.pointee.cancelled, sub.pointee.readIndex == nil, sub.pointee.runNotes.isEmpty
    {
      sub.pointee.running = false
      sub.pointee.depsTail = nil
      sub.pointee.epoch &+= 1
      return
    }
    endRunDroppingLinks(of: sub, work: &work)
    if sub.pointee.ignoredOwnMark {
      sub.pointee.ignoredOwnMark = false
      work.settleInputs(of: sub)
    }
  }

  /// ``endRun(of:work:)`` for the other ends.
  @inline(never)
  private static func endRunDroppingLinks(of sub: GraphRef, work: inout GraphWork) {
    let ran = sub.pointee.running
    sub.pointee.running = false
    if _slowPath(sub.pointee.readIndex != nil) { freeReadIndex(of: sub) }
    if ran && !sub.pointee.cancelled {
      let tail = sub.pointee.depsTail.unsafelyUnwrapped
      sub.pointee.depsTail = nil
      // The run may have moved links, and drops those after the cursor: a pull that
      // stood on one starts the node's walk again.
      sub.pointee.epoch &+= 1
      var link = tail.pointee.nextDep
      tail.pointee.nextDep = nil
      if link != nil { sub.pointee.relinked = true }
      while let current = link {
        link = current.pointee.nextDep
        unlink(current, work: &work)
      }
      countRelink(sub)
      return
    }
    sub.pointee.depsTail = nil
    if sub.pointee.deps != nil { sub.pointee.relinked = true }
    dropDependencies(of: sub, work: &work)
    countRelink(sub)
  }

  /// Counts a run that relinked (``GraphNode/relinks``).
  @inline(__always)
  private static func countRelink(_ sub: GraphRef) {
    guard _slowPath(sub.pointee.relinked) else { return }
    sub.pointee.relinked = false
    sub.pointee.relinks &+= 1
  }

  /// Drops every link of `sub` (it is cancelled, or its run read nothing), unless a
  /// run of it is reading through them: that run keeps them, or drops them when it
  /// ends if the node was cancelled. A retired node's links are off its inputs' lists
  /// already.
  static func dropDependencies(of sub: GraphRef, work: inout GraphWork) {
    guard !sub.pointee.running, sub.pointee.deps != nil else { return }
    var link = sub.pointee.deps
    sub.pointee.deps = nil
    sub.pointee.epoch &+= 1
    let attached = !sub.pointee.retired
    sub.pointee.retired = false
    while let current = link {
      link = current.pointee.nextDep
      if attached { detach(current, work: &work) }
      free(current, work: &work)
    }
  }

  /// Takes `sub`'s links off its inputs' lists of subscribers and keeps them on its
  /// own: it retires (see ``GraphNode/retired``). Not while a run of it is under way or
  /// claimed: that run keeps them (a value a run just linked is current for that run).
  /// The computations it leaves without subscribers go to `work`, rather than retire in
  /// place: down a chain, one after another, not recursively.
  static func detachDependencies(of sub: GraphRef, work: inout GraphWork) {
    guard !sub.pointee.running, sub.pointee.runningThread == 0, !sub.pointee.retired, sub.pointee.deps != nil
    else { return }
    sub.pointee.retired = true
    sub.pointee.epoch &+= 1
    var link = sub.pointee.deps
    while let current = link {
      link = current.pointee.nextDep
      detach(current, work: &work, retiring: true)
    }
  }

  /// Puts a retired computation's links back on its inputs' lists of subscribers, each
  /// as a link made now: in the critical section that claims its recomputation, which
  /// then reads through them as through any links of its previous run.
  @inline(__always)
  static func attachDependencies(of sub: GraphRef, work: inout GraphWork) {
    sub.pointee.retired = false
    sub.pointee.epoch &+= 1
    // The run links its inputs anew (``GraphNode/relinks``).
    sub.pointee.relinks &+= 1
    var link = sub.pointee.deps
    while let current = link {
      attach(current, work: &work)
      link = current.pointee.nextDep
    }
  }

  /// A new link, at the end of `dep`'s subscribers; it holds both nodes.
  private static func makeLink(from sub: GraphRef, to dep: GraphRef, version: UInt64, work: inout GraphWork) -> LinkRef {
    // A spare link's memory if there is one (see `tracking_graph_spare_links_storage`).
    let link = tracking_graph_take_spare_link()?.assumingMemoryBound(to: GraphLink.self) ?? .allocate(capacity: 1)
    link.initialize(to: GraphLink(dep: dep, sub: sub, version: version, order: 0, nextDep: nil))
    _ = dep.pointee.owner.retain()
    _ = sub.pointee.owner.retain()
    attach(link, work: &work)
    return link
  }

  /// Puts `link` at the end of its input's subscribers.
  @inline(__always)
  private static func attach(_ link: LinkRef, work: inout GraphWork) {
    let dep = link.pointee.dep
    link.pointee.order = dep.pointee.isSource ? tracking_next_install_order() : 0
    link.pointee.prevSub = dep.pointee.subsTail
    link.pointee.nextSub = nil
    if let last = dep.pointee.subsTail { last.pointee.nextSub = link } else { dep.pointee.subs = link }
    dep.pointee.subsTail = link
    if link.pointee.sub.pointee.hearsWillSet { dep.pointee.willSetSubscribers += 1 }
    if link.pointee.prevSub == nil { subscribersChanged(dep, observed: true, work: &work) }
  }

  /// Takes `link` off its input's subscribers and frees it; the nodes it held are
  /// released once the lock is left.
  private static func unlink(_ link: LinkRef, work: inout GraphWork) {
    detach(link, work: &work)
    free(link, work: &work)
  }

  /// Takes `link` off its input's subscribers. A stale computation that this leaves
  /// without subscribers retires: in this critical section if it never announced its
  /// changes, unless `retiring` (a retirement detaches `link`'s subscriber), and after
  /// the lock is left otherwise.
  private static func detach(_ link: LinkRef, work: inout GraphWork, retiring: Bool = false) {
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
    if link.pointee.sub.pointee.hearsWillSet { dep.pointee.willSetSubscribers -= 1 }
    guard dep.pointee.subs == nil else { return }
    subscribersChanged(dep, observed: false, work: &work)
    // A stale computation left without subscribers retires now, not at its next
    // change: a propagation stops at a stale node (see `Graph.propagate`), so no
    // change would ever reach it to find it unobserved, and it would observe its
    // inputs for good.
    guard dep.pointee.isStaleAndUnobserved else { return }
    if retiring || dep.pointee.announces {
      work.unobserved(dep)
    } else {
      retireInPlace(dep, work: &work)
    }
  }

  /// Frees `link`, off its input's subscribers; the nodes it held are released once
  /// the lock is left.
  private static func free(_ link: LinkRef, work: inout GraphWork) {
    work.release(heldReference(link.pointee.dep), heldReference(link.pointee.sub))
    link.deinitialize(count: 1)
    if !tracking_graph_keep_spare_link(link) { link.deallocate() }
  }

  /// A dropped link's reference to `node`, to release once the lock is left; or `nil`
  /// while a pull has the node pinned: the node then holds it until the last pin goes
  /// (see ``GraphNode/pin()``).
  @inline(__always)
  private static func heldReference(_ node: GraphRef) -> Unmanaged<AnyObject>? {
    // Only computations are pinned (by pulls).
    if _slowPath(node.pointee.pins != 0) {
      node.pointee.heldReleases += 1
      return nil
    }
    return node.pointee.owner
  }

  /// A node's subscribers went from none to some, or back: its hooks hear it if they
  /// count subscribers. A computation's are told here (its registrar's lock may be
  /// taken under the graph lock); a source's look at the source again once the locks
  /// are left (its object's lock may not: see ``RegistrarStorage/settleSourceHooks()``).
  private static func subscribersChanged(_ dep: GraphRef, observed: Bool, work: inout GraphWork) {
    guard dep.pointee.hooked else { return }
    if dep.pointee.isSource {
      let source = unsafeDowncast(dep.pointee.owner.takeUnretainedValue(), to: PropertySource.self)
      if let hooks = source.hooks { work.settleHooks(hooks) }
      return
    }
    work.deliver(dep.pointee.computation.registrar.storage.setObservedElsewhere(0, observed))
  }
}
