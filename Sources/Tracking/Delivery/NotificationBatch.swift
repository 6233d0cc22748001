import CTrackingSupport

/// The did-set work of one thread's current change (or transaction), held so that
/// everything it reaches runs once, when the change is complete.
///
/// `willSet` callbacks run at once, on the mutating thread, as Apple's do. `didSet`
/// callbacks go through a batch: the outermost `didSet` on a thread (or
/// ``withTransaction(_:)``) opens one, publishes it in the thread's batch slot, and
/// drains it before returning. What waits in it, first in, first out:
///
/// - the did-set callbacks of one-shot trackings (each fires once, so each is queued
///   once);
/// - nodes of the reactive graph: reactions that must run (`observe`, sequences, the
///   render loop, Combine publishers) and computations that announce their changes to
///   one-shot trackings. A node is marked dirty or pending at once, when the change
///   reaches it (see ``ReactiveNode``), and queued once, however many of the changes
///   and paths of the batch reach it: when the batch drains it runs once, having
///   pulled what it read up to date.
///
/// Work that runs while the batch drains may write tracked properties: those writes'
/// did-sets join this batch and run in the same loop. A batch belongs to one thread and
/// is never shared: its storage lives on the stack of the call that opened it.
@usableFromInline
struct NotificationBatch {
  /// Something waiting in the batch.
  private enum Waiting {
    /// A one-shot tracking's did-set, with the change's source (if it was made).
    case oneShot(TrackingObserver, EventSource?)
    /// A node, to ``ReactiveNode/flush()``.
    case node(ReactiveNode)
  }

  // Every field that can hold a reference is checked by `holdsReferences`: a drained
  // batch that holds none is not destroyed (see `run`).
  private var queue = SmallQueue<Waiting>()
  /// The sources of this batch's events, whose synchronous delivery ends with it (the
  /// first inline: a batch usually delivers one change, and then allocates nothing).
  private var firstSource: EventSource?
  private var otherSources: [EventSource] = []

  /// The current thread's batch, if one is open.
  static var current: UnsafeMutablePointer<NotificationBatch>? {
    tracking_current_batch()?.assumingMemoryBound(to: NotificationBatch.self)
  }

  /// Whether a batch is open on this thread.
  @usableFromInline
  static var isOpen: Bool {
    @inline(__always) get { tracking_current_batch() != nil }
  }

  /// Runs `body` inside a batch: the one already open on this thread, or a new one
  /// that is drained when `body` returns (also when it throws).
  ///
  /// Inlinable, so that a caller's `T` and `Failure` are known where the batch is
  /// opened (unspecialized, this costs two metadata lookups per call).
  @inlinable
  static func run<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
    if isOpen { return try body() }
    return try withUnsafeTemporaryAllocation(of: NotificationBatch.self, capacity: 1) {
      (buffer) throws(Failure) -> T in
      let pointer = buffer.baseAddress!
      open(pointer)
      defer { close(pointer) }
      return try body()
    }
  }

  /// Makes the batch at `pointer` (uninitialized memory) this thread's open batch.
  @usableFromInline
  static func open(_ pointer: UnsafeMutablePointer<NotificationBatch>) {
    pointer.initialize(to: NotificationBatch())
    tracking_set_current_batch(pointer)
  }

  /// Drains the batch at `pointer` and closes it.
  @usableFromInline
  static func close(_ pointer: UnsafeMutablePointer<NotificationBatch>) {
    // Many batches end as they began, holding no reference (the queue empty, on the
    // shared empty storage, which is never freed; no source): nothing to drain or
    // release then. (A transaction whose only change went to will-set callbacks.)
    guard pointer.pointee.holdsReferences else {
      tracking_set_current_batch(nil)
      return
    }
    drain(pointer)
    tracking_set_current_batch(nil)
    // Drained: the queue holds no entry, at most its spill's memory.
    pointer.pointee.queue.deallocate()
    if pointer.pointee.holdsReferences { pointer.deinitialize(count: 1) }
  }

  /// Whether anything in this drained batch must be released: a source, or a list
  /// that kept an allocated buffer.
  private var holdsReferences: Bool {
    firstSource != nil || otherSources.capacity != 0 || queue.holdsReferences
  }

  /// Delivers the did-set of one change to `observers` (one-shot trackings): their
  /// callbacks wait in the open batch (or in one opened for them). `change` is
  /// described as far as their callbacks need.
  static func deliverDidSet(_ observers: consuming DueObservers, _ change: ChangeDescription) {
    if observers.count == 1 && !isOpen {
      // Moved out of the list: read from it, the observer would be retained for the call.
      let only = (consume observers).takeOnly().unsafelyUnwrapped
      // The common case, one observer of a change made outside any batch: what it
      // queues would run first in the batch opened for it, as from the (otherwise
      // empty) queue, so its callback is called directly.
      return run {
        if let source = change.source { current!.pointee.keep(source) }
        only.notifyDidSet(change)
      }
    }
    run {
      let batch = current!
      if let source = change.source { batch.pointee.keep(source) }
      // Queued changes are kept as one object, shared by every entry of this change.
      let boxed = change.eventSource
      observers.drain { batch.pointee.queue.append(.oneShot($0, boxed)) }
    }
  }

  /// Delivers the did-set of one change to one-shot observers and to the nodes of the
  /// reactive graph it reached, in the order they were installed (see
  /// ``TrackingObserver/installOrder``): each one-shot callback is queued in the batch,
  /// each node told, as it comes.
  static func deliverDidSet(_ observers: consuming DueObservers, andTo nodes: GraphWork, _ change: ChangeDescription) {
    var due = observers.inOrder()
    run {
      let batch = current!
      if let source = change.source { batch.pointee.keep(source) }
      let boxed = change.eventSource
      nodes.perform(change) { order in due.take(before: order) { batch.pointee.queue.append(.oneShot($0, boxed)) } }
      due.takeRest { batch.pointee.queue.append(.oneShot($0, boxed)) }
    }
  }

  /// Delivers the did-set of one change to the nodes of the reactive graph it reached
  /// (``Graph/propagateWrite(from:thread:work:)``), in the change's batch: told at once,
  /// in the order found. One node reached by a change made outside any batch is told it
  /// is the only one (``GraphWork/tellAlone(_:)``): a reaction may then run at once,
  /// rather than wait in a batch opened for it and be taken back out; one whose change
  /// keeps no source opens that batch itself, only if it acts on the change.
  static func deliverToNodes(_ nodes: GraphWork, _ change: ChangeDescription) {
    if nodes.isOneTell && !isOpen {
      guard let source = change.source else { return nodes.tellAlone(change) }
      return run {
        current!.pointee.keep(source)
        nodes.tellAlone(change)
      }
    }
    run {
      if let source = change.source { current!.pointee.keep(source) }
      nodes.perform(change)
    }
  }

  /// Delivers the did-set of a change whose object and property are unknown to one
  /// one-shot observer (see ``deliverDidSet(_:_:)``).
  static func deliverUnknownDidSet(_ observer: TrackingObserver) {
    run { current!.pointee.queue.append(.oneShot(observer, nil)) }
  }

  /// Queues `node` in the open batch, unless it waits in one already; the caller has
  /// a batch open (nodes are told of changes inside one).
  static func enqueue(_ node: ReactiveNode) {
    let thread = tracking_current_thread()
    let first = node.state.withLock { state -> Bool in
      defer { state.queuedOn = thread }
      return !state.isQueued(on: thread)
    }
    if first { enqueue(queued: node) }
  }

  /// Queues a node that the caller has marked as queued. Takes the caller's reference
  /// (a propagation hands over the one it held to tell the node).
  static func enqueue(queued node: consuming ReactiveNode) {
    guard let batch = current else {
      // Not inside a batch (a change told outside one): drained here.
      let node = node
      return run { enqueue(queued: node) }
    }
    batch.pointee.queue.append(.node(consume node))
  }

  private mutating func keep(_ source: EventSource) {
    if firstSource == nil {
      firstSource = source
    } else {
      otherSources.append(source)
    }
  }

  /// Runs everything queued until nothing is left. The batch is reached through
  /// `pointer` (its published address): work queues more through it while this loop
  /// runs, so no Swift access to the value may span a callback.
  private static func drain(_ pointer: UnsafeMutablePointer<NotificationBatch>) {
    while let waiting = pointer.pointee.queue.next() {
      switch consume waiting {
      case .oneShot(let observer, let source): observer.notifyDidSet(ChangeDescription(boxed: source))
      case .node(let node): node.flush()
      }
    }
    pointer.pointee.firstSource?.endDelivery()
    for source in pointer.pointee.otherSources { source.endDelivery() }
  }
}

/// Groups writes so that did-set observers — continuous callbacks, derived values,
/// one-shot `didSet` trackings, Combine publishers — hear of them once, at the end.
///
/// ```swift
/// withTransaction {
///   cart.items.append(tea)
///   cart.total += tea.price
/// }   // an `observe` of cart.items and cart.total runs once, here
/// ```
///
/// - One-shot `willSet` callbacks (``withTracking(_:onChange:)``) keep Apple's
///   semantics: they run at the first write, before it is stored. Sequences
///   (``TrackedValues``) and the ``RenderLoop`` already wait for the writing code to
///   suspend, so a transaction is one value or one cycle for them too.
/// - Transactions nest: an inner one joins the outermost, and everything is delivered
///   when the outermost returns.
/// - A throwing body ends the transaction too: writes made before the error stay made
///   (nothing is rolled back) and are delivered; the error is rethrown.
/// - A transaction belongs to the thread that runs it: writes made on other threads
///   meanwhile are delivered as usual, each with its own batch.
/// - Callbacks that run at the end may write again; those changes are delivered in
///   the same loop, before `withTransaction` returns.
@inlinable
public func withTransaction<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
  try NotificationBatch.run(body)
}
