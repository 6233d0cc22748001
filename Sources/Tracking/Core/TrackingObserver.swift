import CTrackingSupport

/// One installed tracking: the callbacks to run and whether it is still pending.
///
/// An observer is referenced from every registrar whose properties its scope read.
/// It never references those registrars back, so it cannot keep an object alive and
/// there is nothing to unlink when an object dies. When an observer fires or is
/// cancelled it flips its state word once (compare-and-swap, so exactly one caller
/// wins even when two threads mutate at the same moment) and drops its callbacks;
/// registrars then drop their entries for it the next time they look
/// (see ``RegistrarStorage``).
///
/// The state word sits in the tail allocation of this `ManagedBuffer`, so an observer
/// costs one allocation.
@usableFromInline
package final class TrackingObserver: ManagedBuffer<TrackingObserver.Callbacks, tracking_atomic_word> {
  /// When an observer runs, and whether it stays installed afterwards.
  @usableFromInline
  package enum Kind: UInt8, Sendable {
    /// Runs once, in the first `willSet` of a tracked property (Apple's `onChange`).
    case willSetOnce
    /// Runs once, in the first `didSet` of a tracked property.
    case didSetOnce
    /// Runs its will-set callback in every `willSet` until the first `didSet`, which
    /// runs its did-set callback and ends it. Continuous observation builds on this.
    case willSetThenDidSet
    /// Runs its will-set callback in every `willSet` until cancelled; ignores `didSet`.
    /// A transactional sequence keeps one installed for as long as its closure keeps
    /// reading the same properties, instead of installing a new one per value.
    case willSetRepeating
  }

  /// A callback either ignores what changed (Apple's shape) or receives it.
  @usableFromInline
  package enum Handler: Sendable {
    case plain(@Sendable () -> Void)
    case change(@Sendable (TrackedChange) -> Void)

    var wantsChange: Bool {
      if case .change = self { return true }
      return false
    }

    func run(_ change: @autoclosure () -> TrackedChange) {
      switch self {
      case .plain(let body): body()
      case .change(let body): body(change())
      }
    }
  }

  @usableFromInline
  package struct Callbacks {
    let kind: Kind
    var willSet: Handler?
    var didSet: Handler?
  }

  private static let pending = 0
  private static let finished = 1

  @usableFromInline
  package static func make(kind: Kind, willSet: Handler?, didSet: Handler?) -> TrackingObserver {
    let buffer = TrackingObserver.create(minimumCapacity: 1) { _ in
      Callbacks(kind: kind, willSet: willSet, didSet: didSet)
    }
    let observer = unsafeDowncast(buffer, to: TrackingObserver.self)
    observer.withUnsafeMutablePointerToElements { state in
      state.initialize(to: tracking_atomic_word())
      tracking_atomic_init(state, pending)
    }
    return observer
  }

  /// The kind never changes after creation, so it is read without synchronization.
  package var kind: Kind { callbacks.pointee.kind }

  private var state: UnsafeMutablePointer<tracking_atomic_word> {
    withUnsafeMutablePointerToElements { $0 }
  }

  /// The callbacks, reached through their pointer: the state word already decides
  /// who may touch them (see `releaseCallbacks`), so Swift's dynamic exclusivity
  /// check on `header` would only add cost.
  private var callbacks: UnsafeMutablePointer<Callbacks> {
    withUnsafeMutablePointerToHeader { $0 }
  }

  /// Whether the observer can still run (it has neither fired to the end nor been cancelled).
  package var isPending: Bool { tracking_atomic_load_acquire(state) == Self.pending }

  /// Ends the observer. Returns `true` for the one caller that ended it.
  private func finish() -> Bool {
    tracking_atomic_cas(state, Self.pending, Self.finished)
  }

  /// Cancels a pending observer and releases its callbacks. Returns whether it was pending.
  @discardableResult
  package func cancel() -> Bool {
    guard finish() else { return false }
    releaseCallbacks()
    return true
  }

  /// Only the caller that won `finish()` touches the callbacks of a one-shot observer;
  /// `willSetThenDidSet` and `willSetRepeating` observers keep them until they are
  /// freed, because their will-set callback may be running on another thread.
  private func releaseCallbacks() {
    guard kind != .willSetThenDidSet && kind != .willSetRepeating else { return }
    callbacks.pointee.willSet = nil
    callbacks.pointee.didSet = nil
  }

  /// Called by a registrar, outside its lock, in the `willSet` of a property this
  /// observer tracks.
  func notifyWillSet(_ change: @autoclosure () -> TrackedChange) {
    switch kind {
    case .willSetOnce:
      guard finish() else { return }
      let handler = callbacks.pointee.willSet
      releaseCallbacks()
      handler?.run(change())
    case .willSetThenDidSet, .willSetRepeating:
      guard isPending else { return }
      callbacks.pointee.willSet?.run(change())
    case .didSetOnce:
      return
    }
  }

  /// Called by a registrar, outside its lock, in the `didSet` of a property this
  /// observer tracks.
  func notifyDidSet(_ change: @autoclosure () -> TrackedChange) {
    switch kind {
    case .willSetOnce, .willSetRepeating:
      return
    case .didSetOnce, .willSetThenDidSet:
      guard finish() else { return }
      let handler = callbacks.pointee.didSet
      releaseCallbacks()
      handler?.run(change())
    }
  }

  /// Used by the bridge from Apple's `withObservationTracking`, which reports a change
  /// only once, before it happens, and without saying what changed.
  func notifyExternalChange() {
    let change = TrackedChange(subject: nil, keyPath: nil, propertyID: -1)
    switch kind {
    case .willSetOnce, .willSetThenDidSet, .willSetRepeating:
      notifyWillSet(change)
    case .didSetOnce:
      notifyDidSet(change)
    }
  }
}
