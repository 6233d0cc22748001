import CTrackingSupport

/// The did-set notifications of one thread's current change (or transaction), held
/// so that each observer runs once, after every derived value has heard of the change.
///
/// `willSet` callbacks run at once, on the mutating thread, as Apple's do. `didSet`
/// callbacks go through a batch: the outermost `didSet` on a thread (or
/// ``withTransaction(_:)``) opens one, publishes it in the thread's batch slot, and
/// drains it before returning, in three phases that repeat until all are empty:
///
/// 1. **Propagation**: the observers that keep ``Derived`` values up to date. They
///    mark values stale and pass the change on to their own readers, which queues more
///    work here; they run no user code.
/// 2. **Settling**: work that derived values queued to recompute eagerly (values that
///    notify only when they actually changed), once nothing they read is still mid-change.
/// 3. **Effects**: every other did-set callback (`observe`, one-shot `didSet`
///    trackings, Combine publishers, …). An observer already waiting here is not queued
///    twice, so a diamond of derived values runs each downstream observer once per
///    change, however many paths lead to it.
///
/// An effect that writes a tracked property starts a nested change whose did-set
/// notifications join this batch and run in the same loop. A batch belongs to one
/// thread and is never shared: its storage lives on the stack of the call that opened
/// it.
struct NotificationBatch {
  // Every field that can hold a reference is checked by `holdsReferences`: a drained
  // batch that holds none is not destroyed (see `run`).
  private var propagation = NotificationQueue()
  private var settling: [() -> Void] = []
  private var settled = 0
  private var effects = NotificationQueue()
  /// The sources of this batch's events, whose synchronous delivery ends with it (the
  /// first inline: a batch usually delivers one change, and then allocates nothing).
  private var firstSource: EventSource?
  private var otherSources: [EventSource] = []

  /// The current thread's batch, if one is open.
  static var current: UnsafeMutablePointer<NotificationBatch>? {
    tracking_current_batch()?.assumingMemoryBound(to: NotificationBatch.self)
  }

  /// Whether a batch is open on this thread.
  static var isOpen: Bool { tracking_current_batch() != nil }

  /// Runs `body` inside a batch: the one already open on this thread, or a new one
  /// that is drained when `body` returns (also when it throws).
  static func run<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
    if isOpen { return try body() }
    return try withUnsafeTemporaryAllocation(of: NotificationBatch.self, capacity: 1) {
      (buffer) throws(Failure) -> T in
      let pointer = buffer.baseAddress!
      pointer.initialize(to: NotificationBatch())
      tracking_set_current_batch(pointer)
      defer {
        drain(pointer)
        tracking_set_current_batch(nil)
        // Most batches end as they began, holding no reference (every list empty, on
        // the shared empty storage, which is never freed): nothing to release then,
        // which saves the nine releases of a full destroy on every delivered change.
        if pointer.pointee.holdsReferences { pointer.deinitialize(count: 1) }
      }
      return try body()
    }
  }

  /// Whether anything in this drained batch must be released: a source, or a list
  /// that kept an allocated buffer.
  private var holdsReferences: Bool {
    firstSource != nil || otherSources.capacity != 0 || settling.capacity != 0
      || propagation.holdsReferences || effects.holdsReferences
  }

  /// Delivers the did-set of one change to `observers`: queued in the open batch, or in
  /// one opened for them. `change` is described as far as their callbacks need.
  static func deliverDidSet(_ observers: DueObservers, _ change: ChangeDescription) {
    if let only = observers.only, !only.isPropagation, !isOpen {
      // The common case, one effect of a change made outside any batch: it runs first
      // in the batch opened for it, as it would from the (otherwise empty) queue, so
      // it is called directly rather than queued and taken back.
      return run {
        if let source = change.source { current!.pointee.keep(source) }
        only.notifyDidSet(change)
      }
    }
    run {
      let batch = current!
      if let source = change.source { batch.pointee.keep(source) }
      // Queued changes are kept as one object, shared by every entry of this change.
      let boxed = change.boxed
      observers.forEach { batch.pointee.enqueue($0, boxed) }
    }
  }

  /// Delivers the did-set of a change whose object and property are unknown to one
  /// observer (see ``deliverDidSet(_:_:)``).
  static func deliverUnknownDidSet(_ observer: TrackingObserver) {
    run { current!.pointee.enqueue(observer, nil) }
  }

  /// Drops the did-set notifications waiting for `observer` in this thread's batch.
  ///
  /// A continuous observation calls it when a run ends: notifications queued on this
  /// thread while the run was under way come from the run's own writes (other threads
  /// deliver through their own batches), and a run's own writes do not cause another
  /// run, as with Apple's tracking.
  static func discard(_ observer: ObjectIdentifier) {
    current?.pointee.effects.remove(observer)
  }

  /// Drops the propagation did-sets waiting for `observer` in this thread's batch: a
  /// ``Derived`` calls it when a recomputation ends, for the did-sets of writes that its
  /// own closure made (which, like the run's own writes above, change nothing for it).
  static func discardPropagation(_ observer: TrackingObserver) {
    current?.pointee.propagation.remove(ObjectIdentifier(observer))
  }

  /// Queues work that recomputes a derived value, to run once propagation is done.
  /// Runs it at once when no batch is open.
  static func settle(_ work: @escaping () -> Void) {
    guard let batch = current else { return work() }
    batch.pointee.settling.append(work)
  }

  private mutating func keep(_ source: EventSource) {
    if firstSource == nil {
      firstSource = source
    } else {
      otherSources.append(source)
    }
  }

  private mutating func enqueue(_ observer: TrackingObserver, _ source: EventSource?) {
    if observer.isPropagation {
      propagation.append(observer, source, deduplicating: false)
    } else {
      effects.append(observer, source, deduplicating: true)
    }
  }

  /// Runs everything queued, phase by phase, until nothing is left. The batch is
  /// reached through `pointer` (its published address): callbacks queue more work
  /// through it while this loop runs, so no Swift access to the value may span a
  /// callback.
  private static func drain(_ pointer: UnsafeMutablePointer<NotificationBatch>) {
    while true {
      if let (observer, source) = pointer.pointee.propagation.next() {
        observer.notifyDidSet(ChangeDescription(boxed: source))
      } else if pointer.pointee.settled < pointer.pointee.settling.count {
        let work = pointer.pointee.settling[pointer.pointee.settled]
        pointer.pointee.settled += 1
        work()
      } else if let (observer, source) = pointer.pointee.effects.next() {
        observer.notifyDidSet(ChangeDescription(boxed: source))
      } else {
        break
      }
    }
    pointer.pointee.firstSource?.endDelivery()
    for source in pointer.pointee.otherSources { source.endDelivery() }
  }
}

/// A first-in, first-out queue of did-set notifications that holds its first entry
/// inline, so that a change with one observer allocates nothing.
struct NotificationQueue {
  private var first: (TrackingObserver, EventSource?)?
  private var rest: [(TrackingObserver, EventSource?)] = []
  private var taken = 0

  /// Appends a notification; with `deduplicating`, not if the observer already waits.
  mutating func append(_ observer: TrackingObserver, _ source: EventSource?, deduplicating: Bool) {
    if deduplicating, isWaiting(observer) { return }
    if first == nil && rest.isEmpty {
      first = (observer, source)
    } else {
      rest.append((observer, source))
    }
  }

  private func isWaiting(_ observer: TrackingObserver) -> Bool {
    if let first, first.0 === observer { return true }
    return rest[taken...].contains { $0.0 === observer }
  }

  /// Removes the waiting notifications of `observer` (by identity: the caller need
  /// not hold it).
  mutating func remove(_ observer: ObjectIdentifier) {
    if let head = first, ObjectIdentifier(head.0) == observer { first = nil }
    guard taken < rest.count, rest[taken...].contains(where: { ObjectIdentifier($0.0) == observer }) else { return }
    let waiting = rest[taken...].filter { ObjectIdentifier($0.0) != observer }
    rest.removeSubrange(taken...)
    rest.append(contentsOf: waiting)
  }

  /// Whether the queue holds an entry or an allocated buffer.
  var holdsReferences: Bool { first != nil || rest.capacity != 0 }

  /// Removes and returns the oldest notification.
  mutating func next() -> (TrackingObserver, EventSource?)? {
    if let head = first {
      first = nil
      return head
    }
    guard taken < rest.count else { return nil }
    defer {
      taken += 1
      if taken == rest.count {
        rest.removeAll(keepingCapacity: true)
        taken = 0
      }
    }
    return rest[taken]
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
public func withTransaction<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
  try NotificationBatch.run(body)
}
