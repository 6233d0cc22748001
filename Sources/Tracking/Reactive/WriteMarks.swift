import CTrackingSupport

/// The derived values that a write of a tracked property makes dirty while the
/// property's registrar scans its observers: the first piece of a write that goes
/// straight into the graph.
///
/// **Where it runs.** Under the object's lock, with the graph lock taken inside it at
/// the first derived value found and left when the scan ends, before the object's lock
/// is released. That nesting is allowed because a tracked object's lock is never taken
/// under the graph lock: the graph lock is only ever held around a derived value's own
/// registrar (its hooks), whose writes never reach nodes (`toNodes: false`). So the
/// order is a node's lock, a tracked object's lock, the graph lock, a derived value's
/// lock. Nothing is called under either lock: the reactions reached are told by
/// ``deliver()`` once both are left.
///
/// **Which observers.** Only the observers of computations that record no causes
/// (``TrackingObserver/observesPlainComputation``): their did-set does nothing but
/// make the computation dirty. And only those found before any other due observer:
/// the reactions they reach are told before the due observers are delivered, which
/// is then the order in which the scan found them (a derived value found after, say,
/// a reaction waits in the due list, and is told in its turn).
///
/// What it saves, against delivering the same observers after the scan: a retain and
/// a release of each observer, and a second pass over them.
struct WriteMarks {
  private var thread: UInt = 0
  private var work = GraphWork()

  init() {}

  /// Marks the computation of `observer` dirty, under the graph lock, which this takes
  /// at the first call; ``endScan()`` leaves it. The caller holds the object's lock and
  /// found `observer` pending in the scan, so it is installed (held by the registrar)
  /// and its node alive.
  @inline(__always)
  mutating func markDirty(_ observer: TrackingObserver) {
    if thread == 0 {
      thread = tracking_current_thread()
      Graph.enter()
    }
    Computation.markStale(observer.nodeGraph, dirty: true, thread: thread, work: &work)
  }

  /// Leaves the graph lock, if a computation was marked; called before the object's
  /// lock is released.
  @inline(__always)
  func endScan() {
    if thread != 0 { Graph.leave() }
  }

  /// Whether no reaction or other work was reached.
  var isEmpty: Bool { work.isEmpty }

  /// Tells the reactions reached, with no lock held, in the change's batch: one
  /// reaction reached by a change made outside any batch is told it is the only one,
  /// and may run at once (``GraphWork/tellAlone()``); otherwise in the open batch, or
  /// in one opened for them if they need it.
  func deliver() {
    let work = work
    guard !work.isEmpty else { return }
    if work.isOneTell && !NotificationBatch.isOpen { return work.tellAlone() }
    NotificationBatch.run { work.perform() }
  }
}
