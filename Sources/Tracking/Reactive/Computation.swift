import CTrackingSupport

/// A node that caches a value computed from what it reads: the engine of ``Derived``.
/// Non-generic, so that a change costs specialized code whatever the value's type; the
/// value is in ``DerivedComputation``, and its closure and comparison in
/// ``DerivedValueOperations``, specialized where the `Derived` is made.
///
/// **States** (in ``NodeState``): *current* (the cache holds the value of the inputs as
/// they are); *dirty* (an input surely changed: recompute at the next pull); *pending*
/// (a computation it read may have changed: pull that one first, and recompute only if
/// its value did change). Only an input change (push) makes it stale; only a pull makes
/// it current.
///
/// **Versions.** `version` grows by one each time a recomputation yields a value that
/// differs from the previous one (by the value's rule: `==` for an `Equatable` value,
/// every time for others, or the caller's). A reader notes the version it read; a
/// pending reader runs only if one of the versions it noted has moved. That is the
/// equality cut-off: a change that leaves a value equal stops there.
///
/// **Only while observed.** A computation that nobody observes any more stops
/// observing its inputs at their next change (it *retires*: its observer is cancelled,
/// it stays dirty), and observes them again at its next read.
///
/// **Announcing.** A computation read by a one-shot tracking, or relayed to Apple's
/// registrar (SwiftUI), also announces its changes through its registrar, with the
/// timing of a stored property: `willSet` while ``Derived/value`` still returns the old
/// value, then `didSet`. Since it changes when it is recomputed, that happens when the
/// batch that changed an input drains (it queues itself to be pulled then); its inputs
/// already hold their new values.
///
/// **One update at a time.** Recomputing holds the update lock, so two threads reading
/// a stale value compute it once. Reading a computation from its own closure is a cycle,
/// reported as an error.
package class Computation: ReactiveNode, @unchecked Sendable {
  /// The registrar of the value: the one-shot trackings that read it install their
  /// observers here, and it relays to Apple's registrar. The nodes that read it are on
  /// its reader list instead (``NodeState/readers``).
  let registrar = TrackingRegistrar()
  /// Held while recomputing (see "One update at a time").
  private let updateLock = Locked(())

  init(site: SourceSite? = nil) {
    super.init(changeNeeds: .nothing, hearsWillSet: false, isComputation: true, site: site)
  }

  // MARK: Pushed (on the mutating thread)

  /// Heard only to read the old value (introspection).
  override final func sourceWillChange(_ change: ChangeDescription) {
    recordCause(.willSet, change)
  }

  override final func sourceDidChange(_ change: ChangeDescription) {
    recordCause(.didSet, change)
    becomeStale(dirty: true, deferred: false)
  }

  override final func computationMayHaveChanged(_ computation: Computation, deferred: Bool) {
    if introspects { recordCause(.didSet, .computation(ComputationChange(computation: computation))) }
    becomeStale(dirty: false, deferred: deferred)
  }

  /// An Apple object read by the latest recomputation is about to change: it has not
  /// changed yet, so the value is recomputed at every read, and not cached, until an
  /// input of ours reports a did-set (Apple's public API reports nothing after a
  /// change); the readers' runs are scheduled rather than started here.
  override final func appleSourceWillChange() {
    state.withLock { $0.appleInFlight = true }
    becomeStale(dirty: true, deferred: true)
  }

  /// Marks this computation stale and, if it was current, passes the change on: its
  /// readers become pending (once: a stale one passes nothing on), and the runs of the
  /// reactions among them wait in the current batch.
  final func becomeStale(dirty: Bool, deferred: Bool) {
    let thread = tracking_current_thread()
    let passOn = state.withLock { state -> Bool in
      if state.cancelled || Self.isOwnChange(state, thread: thread) { return false }
      state.staleMarks &+= 1
      if dirty { state.appleInFlight = state.appleInFlight && deferred }
      let wasStale = state.isStale
      if dirty { state.dirty = true } else { state.pending = true }
      return !wasStale
    }
    if passOn { Self.propagate(from: self, deferred: deferred) }
  }

  /// Passes a change on from `root`, which just became stale, to everything
  /// downstream: depth-first, with a stack of its own (graphs can be thousands of
  /// computations deep), each computation once. The root is not on the stack: its
  /// caller holds it.
  private static func propagate(from root: Computation, deferred: Bool) {
    var stack = NodeStack()
    root.passOn(deferred: deferred, to: &stack)
    while let computation = stack.pop() {
      computation.passOn(deferred: deferred, to: &stack)
    }
  }

  /// Tells this computation's readers that it may have changed: the computations among
  /// them that were current become pending, and go on `stack` to pass the change on in
  /// turn; the others (reactions) hear it. A computation that nobody observes any more
  /// retires instead.
  @inline(__always)
  private func passOn(deferred: Bool, to stack: inout NodeStack) {
    let (readers, announces) = state.withLock { ($0.readers.nodes, $0.announces) }
    // One-shot trackings observe it in its registrar; only a value that announces its
    // changes can have any (a one-shot read, or a relayed one, makes it announce).
    let oneShots = announces && registrar.storage.hasOneShotObservers(of: 0)
    guard oneShots || !readers.isEmpty else {
      // Nobody observes it any more.
      retire()
      return
    }
    if oneShots { NotificationBatch.enqueue(self) }
    // Borrowed through the buffer (which the copy keeps alive): iterating would retain
    // and release each reader.
    readers.withUnsafeBufferPointer { readers in
      for position in readers.indices {
        Unmanaged.passUnretained(readers[position])._withUnsafeGuaranteedRef { node in
          if node.isComputation {
            let next = unsafeDowncast(node, to: Computation.self)
            if next.markPending() { stack.push(next) }
          } else {
            node.computationMayHaveChanged(self, deferred: deferred)
          }
        }
      }
    }
  }

  /// Marks a reader pending; returns whether it was current (then the caller passes
  /// the change on from it). A reader stale already passes nothing on, but counts the
  /// news: a pull of it under way on another thread may have looked at this input
  /// before it changed, and must look again before it clears `pending`.
  private func markPending() -> Bool {
    let thread = tracking_current_thread()
    return state.withLock { state in
      if state.cancelled || Self.isOwnChange(state, thread: thread) { return false }
      state.staleMarks &+= 1
      if state.isStale { return false }
      state.pending = true
      return true
    }
  }

  /// Stops the computation for good (its scope ended): cancelled, and computed afresh at
  /// every read.
  final func stop() {
    state.withLock { $0.stopped = true }
    cancel()
  }

  /// Stops observing the inputs: nobody observes the value. It stays dirty, so the
  /// next read recomputes (and observes them again).
  ///
  /// The propagation found no reader and no one-shot observer, but another thread may
  /// have added one since:
  /// - a recomputation of a reader that joined the list: then the value stays as it is
  ///   (current for that reader, which would not hear of its next change otherwise);
  /// - a one-shot tracking that read the value while it was current, installing its
  ///   observer in the registrar now: the retirement then counts as a change for it,
  ///   as a write would, in the registrar's epoch protocol (see ``RegistrarStorage``).
  ///   Either the install sees that change and fires, or the retirement sees the
  ///   observer and queues the value to be pulled when the batch drains, which makes it
  ///   observe its inputs again (and announce if its value moved).
  final func retire() {
    let dropped = state.withLock { state -> Dropped? in
      guard state.readers.isEmpty else { return nil }
      state.dirty = true
      if state.keepsAlive { return nil }
      return state.dependencies.drop()
    }
    guard let dropped else { return }
    letGo(dropped)
    if registrar.storage.countsAsChangeForInstalls(0) { NotificationBatch.enqueue(self) }
  }

  // MARK: Pulled (on the reading thread)

  /// Called when the batch this computation queued itself in drains: brings it up to
  /// date, which announces a change to its one-shot observers.
  override final func flush() {
    let thread = tracking_current_thread()
    state.withLock { $0.leaveQueue(of: thread) }
    Self.ensureCurrent(self)
  }

  /// Whether the value changed since `version` was read, or may have (a recomputation
  /// under way on another thread may be about to store a new one).
  final func hasChanged(since version: UInt64) -> Bool {
    let thread = tracking_current_thread()
    return state.withLock { $0.version != version || $0.isStale || $0.isComputedElsewhere(than: thread) }
  }

  /// Brings `root` up to date, and everything it depends on first: a dirty
  /// computation recomputes; a pending one pulls the computations it read, in order,
  /// and recomputes only when one of their versions moved. Iterative (graphs can be
  /// thousands deep): each recomputation then finds its inputs current.
  static func ensureCurrent(_ root: Computation) {
    let thread = tracking_current_thread()
    guard root.needsUpdate(on: thread) else { return }
    // The computation being pulled and how far it got are locals; the ones waiting
    // for it (its readers on the way down) are on the stack.
    var current = root
    var index = 0
    var marks: UInt32 = 0
    var waiting = SmallList<PullFrame>()
    var step = current.pullStep(at: &index, marks: &marks, thread: thread)
    while true {
      // Consumed: the input moves from the step into `current`, and `current` into its
      // frame, with no retain (a chain of ten pulls ten deep).
      switch consume step {
      case .descend(let input, let version):
        // A pull two deep is often many deep (a chain): room for 16 at once.
        if !waiting.isEmpty { waiting.reserveCapacityForRest(16) }
        waiting.append(
          PullFrame(computation: consume current, version: version, index: UInt32(truncatingIfNeeded: index), marks: marks))
        current = input
        index = 0
        step = current.pullStep(at: &index, marks: &marks, thread: thread)
        continue
      case .recompute: current.update()
      case .current: break
      }
      guard let reader = waiting.popLast() else { return }
      // `current` is the input `reader` waited for, up to date now: whether its version
      // moved decides the reader's next step, without reading the reader's list again.
      let input = consume current
      current = reader.computation
      index = Int(reader.index)
      marks = reader.marks
      switch input.pullState(since: reader.version, thread: thread) {
      case .changed: step = .recompute
      case .stale: step = .descend(input, version: reader.version)  // changed again meanwhile
      case .unchanged:
        index += 1
        step = current.pullStep(at: &index, marks: &marks, thread: thread)
      }
    }
  }

  private enum PullStep {
    /// This input, read at this version, is stale: bring it up to date first.
    case descend(Computation, version: UInt64)
    /// Recompute (dirty, or an input's version moved).
    case recompute
    /// Nothing to do (current, or every input kept its version).
    case current
  }

  /// Whether a pull on `thread` has anything to do.
  private func needsUpdate(on thread: UInt) -> Bool {
    state.withLock { $0.needsUpdate(on: thread) }
  }

  /// The next step of pulling this computation, from its `index`-th input on. Each
  /// input is read out under the lock on its own (copying the list would retain and
  /// release all of it at every step).
  ///
  /// `marks` is the node's ``NodeState/staleMarks`` as the walk found it at the first
  /// input. An input may change, and mark this node (pending already), after the walk
  /// looked at it: then the walk starts again rather than make the node current.
  ///
  /// A node that another thread is recomputing is recomputed here too: ``update()``
  /// waits for that run on the update lock, and then finds the value current.
  @inline(__always)
  private func pullStep(at index: inout Int, marks: inout UInt32, thread: UInt) -> PullStep {
    while true {
      while true {
        let position = index
        let (stale, dirty, read) = state.withLock { state -> (Bool, Bool, ComputationReads.Read?) in
          if position == 0 { marks = state.staleMarks }
          return (
            state.needsUpdate(on: thread),
            state.dirty || !state.hasCache || state.appleInFlight || state.stopped
              || state.isComputedElsewhere(than: thread),
            position < state.dependencies.computations.count ? state.dependencies.computations[position] : nil
          )
        }
        guard stale else { return .current }
        if dirty { return .recompute }
        guard let read else { break }
        switch read.computation.pullState(since: read.version, thread: thread) {
        case .stale: return .descend(read.computation, version: read.version)
        case .changed: return .recompute
        case .unchanged: index += 1
        }
      }
      // Pending, and nothing it read changed: current again, unless it became dirty
      // meanwhile, or was told of a change since the walk began.
      let done = state.withLock { state -> PullStep? in
        if state.dirty { return .recompute }
        guard state.staleMarks == marks else { return nil }
        state.pending = false
        return .current
      }
      if let done { return done }
      index = 0
    }
  }

  /// What a pull finds of an input read at `version`.
  private enum InputState { case stale, changed, unchanged }

  private func pullState(since version: UInt64, thread: UInt) -> InputState {
    state.withLock { state in
      // A stopped input computes at every read: its reader recomputes (and reads it).
      if state.stopped { return .changed }
      if state.needsUpdate(on: thread) { return .stale }
      return state.version != version ? .changed : .unchanged
    }
  }

  /// Recomputes under the update lock, unless another thread made the value current
  /// meanwhile.
  ///
  /// Inside a batch, opened first so that it drains after the lock is released: the
  /// did-sets of writes the closure makes run once the value is stored, and a reaction
  /// they run may read this value again.
  private func update() {
    let thread = tracking_current_thread()
    precondition(
      state.withLock { $0.runningThread != thread },
      "A Derived value was read while it was being computed, on the same thread: its closure reads itself (a cycle).")
    NotificationBatch.run {
      updateLock.lock()
      defer { updateLock.unlock() }
      let mustCompute = state.withLock { state -> Bool in
        guard state.needsUpdate else { return false }
        // Changes from now on are for the next recomputation.
        state.dirty = false
        state.pending = false
        state.runningThread = thread
        state.causes.beginRun()
        return true
      }
      if mustCompute { recompute(thread: thread) }
    }
  }

  /// The type of the value's owner, for naming it (introspection).
  final var typeName: String { ownerType.map { String(describing: $0) } ?? "Derived" }

  /// The type of the value's owner, as a tracked type (`Derived<Value>`), for naming
  /// what a reader depends on; overridden by ``DerivedComputation``.
  var ownerType: (any Trackable.Type)? { nil }

  /// Which value changed, for the readers that say so (the `value` of the `Derived`);
  /// overridden by ``DerivedComputation``.
  var changeSite: ChangeSite? { nil }

  /// Runs the closure and stores its value; overridden by ``DerivedComputation``.
  /// Called with the update lock held and the run marked on `thread`; must end the run
  /// with ``endRecomputation(_:)``.
  func recompute(thread: UInt) {}

  /// Ends a recomputation that read `reads`: keeps or replaces the input observer, and
  /// makes the value stale again if an input changed on another thread before the new
  /// observer could see it.
  final func endRecomputation(_ reads: borrowing AccessList) {
    let changedElsewhere = adopt(reads) { state, changedElsewhere -> Bool in
      state.runningThread = 0
      return changedElsewhere
    }
    if changedElsewhere { becomeStale(dirty: true, deferred: false) }
  }

  deinit {}
}

/// A computation whose pull waits for one of its inputs to be brought up to date, the
/// index of that input, the version the computation read of it and how many times it
/// had been marked stale when its walk began (see ``Computation/ensureCurrent(_:)``).
struct PullFrame {
  let computation: Computation
  let version: UInt64
  /// 32 bits, so that the frame stays three words with `marks`.
  let index: UInt32
  /// The computation's ``NodeState/staleMarks`` when its walk began.
  let marks: UInt32
}

/// A stack of computations for a propagation: a chain (where each pops before it pushes
/// the next) allocates nothing.
struct NodeStack {
  private var stack = SmallList<Computation>()

  mutating func push(_ computation: Computation) { stack.append(computation) }

  mutating func pop() -> Computation? { stack.popLast() }
}
