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
/// **States.** *pending* → *finished*, or, for the one-shot observers that end at a
/// did-set (`didSetOnce`, `willSetThenDidSet`), *pending* → *due* → *finished*. An
/// observer becomes due at the did-set that ends it, when that did-set is queued in a
/// ``NotificationBatch``; its callback runs when the batch drains. A due observer
/// takes no other event — no will-set, no deinit, no second did-set, from any object
/// or thread — and cancelling it (*due* → *finished*) still suppresses its callback.
///
/// The state word sits in the tail allocation of this `ManagedBuffer`, so an observer
/// costs one allocation.
@usableFromInline
package final class TrackingObserver: ManagedBuffer<TrackingObserver.Callbacks, tracking_atomic_word> {
  // Thread safety (a `ManagedBuffer` cannot be declared `Sendable`; the values that carry
  // observers across threads say `@unchecked` and point here): the state word is
  // atomic, the callbacks are immutable after `make` except that the one caller that
  // wins `finish()` may clear them (see `releaseCallbacks`), and the rest is immutable.

  /// When an observer runs, and whether it stays installed afterwards.
  @usableFromInline
  package enum Kind: UInt8, Sendable {
    /// Runs once, in the first `willSet` of a tracked property (Apple's `onChange`).
    case willSetOnce
    /// Runs once, in the first `didSet` of a tracked property.
    case didSetOnce
    /// Runs its will-set callback in every `willSet` until the first `didSet`, which
    /// runs its did-set callback and ends it (SE-0506's `[.willSet, .didSet]`).
    case willSetThenDidSet
    /// Hears only deallocations, until cancelled (a tracking with only `.deinit`).
    case deinitOnly

    /// Whether observers of this kind stay installed after they fire.
    var isRepeating: Bool { self == .deinitOnly }
  }

  /// A callback either ignores what happened (Apple's classic shape) or receives it.
  @usableFromInline
  package enum Handler: Sendable {
    case plain(@Sendable () -> Void)
    case event(@Sendable (TrackingEvent) -> Void)

    /// How much of a change a handler needs described (see ``ChangeDescription``).
    @usableFromInline
    package enum Needs: UInt8, Comparable, Sendable {
      /// Nothing: the handler ignores what changed.
      case nothing
      /// Which property of which object (a ``ChangeSite``).
      case site
      /// The change with its object (an ``EventSource``), for a ``TrackingEvent``.
      case source

      @usableFromInline
      package static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    var needs: Needs {
      switch self {
      case .plain: .nothing
      case .event: .source
      }
    }

    /// Runs the callback outside every tracking scope. A callback fires inside the
    /// write that caused it, and that write may be made by a closure whose reads are
    /// being collected (an `apply`, a continuous observation's run): what the callback
    /// reads is not that closure's, and recorded there it would make the closure re-run
    /// for changes it never read. (Apple's code leaves the thread's scope in place.)
    func run(_ kind: TrackingEvent.Kind, _ change: ChangeDescription, canceller: TrackingObserver) {
      AccessList.withoutTracking {
        switch self {
        case .plain(let body): body()
        case .event(let body): body(TrackingEvent(kind: kind, source: change.source, canceller: canceller))
        }
      }
    }
  }

  @usableFromInline
  package struct Callbacks {
    let kind: Kind
    /// How much of a change the will-set and did-set callbacks need described; fixed
    /// at creation, so they can be read while another thread releases the callbacks.
    let willSetNeeds: Handler.Needs
    let didSetNeeds: Handler.Needs
    /// See ``TrackingObserver/sharedBits``. Sits in the padding after the flags, so
    /// an observer does not grow.
    var sharedBits: UInt32 = 0
    /// See ``TrackingObserver/installOrder``.
    var installOrder: UInt64 = 0
    var willSet: Handler?
    var didSet: Handler?
    var `deinit`: Handler?
  }

  private static let pending = 0
  private static let finished = 1
  private static let due = 2

  @usableFromInline
  package static func make(
    kind: Kind, willSet: Handler?, didSet: Handler?, deinit: Handler? = nil
  ) -> TrackingObserver {
    // The callbacks are made in the buffer's closure: made outside and captured, they
    // were copied in through their value witness (about 75 instructions per tracking).
    let buffer = TrackingObserver.create(minimumCapacity: 1) { _ in
      Callbacks(
        kind: kind, willSetNeeds: willSet?.needs ?? .nothing, didSetNeeds: didSet?.needs ?? .nothing,
        willSet: willSet, didSet: didSet, deinit: `deinit`)
    }
    // `create` returns the dynamic subclass typed as its base class.
    let observer = unsafeDowncast(buffer, to: TrackingObserver.self)
    observer.withUnsafeMutablePointerToElements { state in
      state.initialize(to: tracking_atomic_word())
      tracking_atomic_init(state, pending)
    }
    return observer
  }

  /// The kind never changes after creation, so it is read without synchronization.
  package var kind: Kind { callbacks.pointee.kind }

  /// Whether the observer runs anything at a will-set.
  var hearsWillSet: Bool {
    switch kind {
    case .willSetOnce, .willSetThenDidSet: true
    case .didSetOnce, .deinitOnly: false
    }
  }

  /// How much of a change the did-set callback needs described.
  var didSetNeeds: Handler.Needs { callbacks.pointee.didSetNeeds }

  /// How much of a change the will-set callback needs described.
  var willSetNeeds: Handler.Needs { callbacks.pointee.willSetNeeds }

  /// The properties this observer watches on each object that holds it alone (see
  /// ``RegistrarStorage/Observers``): properties 0–30 and 63 (the number under which
  /// a ``StateStore`` records reads of its root, ``StateObservation/rootID``, which
  /// every read through a store includes), as their bits rotated left by one; 0 when
  /// it watches a property numbered 31–62 or higher, or none that way.
  ///
  /// Set by ``AccessList/install(_:)`` before the observer is installed anywhere, and
  /// never changed afterwards; registrars read it under their locks, which order it
  /// after that write.
  var sharedBits: UInt32 { callbacks.pointee.sharedBits }

  /// When the observer was installed, among everything installed on tracked properties
  /// (one-shot observers, and the links of nodes to the properties' sources): what is
  /// told of a change is told in this order (see ``RegistrarStorage/didSet(_:subject:site:)``).
  /// Set by ``AccessList/install(_:)`` with ``sharedBits``, before the observer is
  /// installed anywhere, and never changed afterwards.
  var installOrder: UInt64 { callbacks.pointee.installOrder }

  /// Stamps the observer with the next installation number. Only for an observer that
  /// is not installed yet.
  func stampInstallOrder() {
    callbacks.pointer(to: \.installOrder)!.pointee = tracking_next_install_order()
  }

  /// The property set of ``sharedBits``.
  var sharedProperties: PropertySet { PropertySet(bits: Self.properties(sharedBits)) }

  /// Whether `properties` are exactly this observer's shared bits (so an object that
  /// holds it alone needs no entry for it).
  func sharesBits(_ properties: PropertySet) -> Bool {
    let bits = sharedBits
    // The fields compared directly, bits first, rather than `==` with a set made from
    // `bits`: 4 instructions fewer per install (RESULTS.md, *an equality always inlined*).
    return bits != 0 && properties.bits == Self.properties(bits) && properties.spilled == nil
      && !properties.includesAll
  }

  /// Sets ``sharedBits`` to `properties`, when they fit. Only for an observer that is
  /// not installed yet.
  func shareBits(of properties: PropertySet) {
    guard properties.spilled == nil, !properties.includesAll, properties.bits & Self.unshared == 0 else { return }
    // Rotated left by one, property 63 lands on bit 0 and 0–30 on 1–31 (one `rol`).
    let bits = properties.bits << 1 | properties.bits >> 63
    // A store to the one field, through its pointer (see `takeFinalHandler`).
    callbacks.pointer(to: \.sharedBits)!.pointee = UInt32(truncatingIfNeeded: bits)
  }

  /// The properties that shared bits cannot hold: 31 to 62.
  private static let unshared: UInt64 = 0x7FFF_FFFF_8000_0000

  /// The properties of shared bits `bits`, rotated back (one `ror`).
  private static func properties(_ bits: UInt32) -> UInt64 {
    let word = UInt64(bits)
    return word >> 1 | word << 63
  }

  private var state: UnsafeMutablePointer<tracking_atomic_word> {
    withUnsafeMutablePointerToElements { $0 }
  }

  /// The callbacks, reached through their pointer: the state word already decides
  /// who may touch them (see `releaseCallbacks`), so Swift's dynamic exclusivity
  /// check on `header` would only add cost.
  private var callbacks: UnsafeMutablePointer<Callbacks> {
    withUnsafeMutablePointerToHeader { $0 }
  }

  /// Whether the observer still takes events (it is neither due nor finished).
  package var isPending: Bool { tracking_atomic_load_acquire(state) == Self.pending }

  /// Whether the observer's callback may still run: it is pending, or due.
  package var mayStillRun: Bool { tracking_atomic_load_acquire(state) != Self.finished }

  /// Ends a pending observer. Returns `true` for the one caller that ended it.
  private func finish() -> Bool {
    tracking_atomic_cas(state, Self.pending, Self.finished)
  }

  /// Makes a pending one-shot did-set observer due: its did-set is queued. Returns
  /// `true` for the one caller that did, which must deliver that did-set.
  func becomeDue() -> Bool {
    tracking_atomic_cas(state, Self.pending, Self.due)
  }

  /// Cancels a pending observer and releases its callbacks. Returns whether it was pending.
  @discardableResult
  package func cancel() -> Bool {
    guard finish() || tracking_atomic_cas(state, Self.due, Self.finished) else { return false }
    releaseCallbacks()
    return true
  }

  /// Only the caller that won `finish()` touches the callbacks of a one-shot observer.
  /// Observers whose callbacks may be running on another thread when they end keep
  /// them until they are freed: repeating ones, `willSetThenDidSet` ones (a will-set
  /// callback may still run when the did-set ends it) and those with a deinit callback
  /// (the deallocating thread may be running it).
  private func releaseCallbacks() {
    let callbacks = callbacks
    guard mayReleaseCallbacks else { return }
    callbacks.pointee.willSet = nil
    callbacks.pointee.didSet = nil
  }

  /// Whether the caller that ended this observer may release its callbacks (see
  /// `releaseCallbacks`).
  private var mayReleaseCallbacks: Bool {
    let kind = callbacks.pointee.kind
    return !kind.isRepeating && kind != .willSetThenDidSet && callbacks.pointee.deinit == nil
  }

  /// The handler a one-shot observer runs as it ends, called by the one caller that
  /// ended it: moved out of the callbacks when they may be released (no copy, and the
  /// other callback is released), else copied.
  ///
  /// The move goes through a pointer to the handler's own field. A mutating call on
  /// `callbacks.pointee.didSet` (`take()`) would be a formal access to the whole
  /// `Callbacks`, which overlaps the `kind` that registrars read under their locks on
  /// other threads: harmless, but ThreadSanitizer reports it as an access race.
  @inline(__always)
  private func takeFinalHandler(didSet: Bool) -> Handler? {
    let callbacks = callbacks
    guard mayReleaseCallbacks else { return didSet ? callbacks.pointee.didSet : callbacks.pointee.willSet }
    let field = didSet ? callbacks.pointer(to: \.didSet)! : callbacks.pointer(to: \.willSet)!
    let handler = field.move()
    field.initialize(to: nil)
    if didSet { callbacks.pointee.willSet = nil } else { callbacks.pointee.didSet = nil }
    return handler
  }

  /// Called by a registrar, outside its lock, in the `willSet` of a property this
  /// observer tracks. `change` is described as far as the due observers' callbacks
  /// need.
  func notifyWillSet(_ change: ChangeDescription) {
    switch kind {
    case .willSetOnce:
      guard finish() else { return }
      takeFinalHandler(didSet: false)?.run(.willSet, change, canceller: self)
    case .willSetThenDidSet:
      guard isPending else { return }
      callbacks.pointee.willSet?.run(.willSet, change, canceller: self)
    case .didSetOnce, .deinitOnly:
      return
    }
  }

  /// Called by a batch, outside any lock, for a did-set queued for a one-shot observer
  /// (see ``NotificationBatch``).
  func notifyDidSet(_ change: ChangeDescription) {
    switch kind {
    case .willSetOnce, .deinitOnly:
      return
    case .didSetOnce, .willSetThenDidSet:
      // Queued as due (see `becomeDue`); a cancel since then won the word.
      guard tracking_atomic_cas(state, Self.due, Self.finished) else { return }
      takeFinalHandler(didSet: true)?.run(.didSet, change, canceller: self)
    }
  }

  /// Called by a registrar that is being freed because its object was deallocated,
  /// on the deallocating thread. Does not end the observer: it may watch other
  /// objects.
  func notifyDeinit() {
    guard isPending, let handler = callbacks.pointee.deinit else { return }
    handler.run(.deinit, .none, canceller: self)
  }

  /// Used by the bridge from Apple's `withObservationTracking`, which reports a change
  /// only once, before it happens, and without saying what changed. An observer that
  /// takes did-sets gets one right after the will-set (the object still holds its old
  /// value then; see ``TrackingInterop/observesAppleObservables``), so a one-shot
  /// tracking with both options ends as it would for our objects. (Nodes of the
  /// reactive graph bridge Apple's changes themselves: they must not act on the value
  /// before Apple's write lands.)
  func notifyExternalChange() {
    notifyUnknownChange()
  }

  /// Reports a change that another thread made while this observer's scope was
  /// reading (detected when it was installed): as a `willSet`, then a `didSet`,
  /// whichever of the two this observer takes. The property is unknown.
  func notifyChangeDuringScope() {
    notifyUnknownChange()
  }

  /// A `willSet`, then a `didSet` (delivered through this thread's batch), whichever of
  /// the two this observer takes, for a change whose property is unknown.
  private func notifyUnknownChange() {
    notifyWillSet(.none)
    switch kind {
    case .willSetOnce, .deinitOnly: return
    case .didSetOnce, .willSetThenDidSet: guard becomeDue() else { return }
    }
    NotificationBatch.deliverUnknownDidSet(self)
  }
}

extension TrackingObserver: TrackingCancellable {}
