/// Keeps a continuous observation alive: cancel it, or release it, to stop the
/// observation. The equivalent of Apple's `ObservationTracking.Token` (SE-0506), but a
/// class: it is `Hashable`, can be kept in a `Set`, and copies refer to the same
/// observation.
///
/// Bind an observation to a *lifetime*, not to an initializer: a SwiftUI view's
/// `init` (or any type held in `@State`) may run many times, and each run would start
/// another observation. Store the token in the object whose lifetime the observation
/// should share — a view model, a controller, a `.task` — and the observation ends
/// when that owner goes away:
///
/// ```swift
/// final class Renderer {
///   private var tokens: Set<TrackingToken> = []
///   func start(_ model: Model) {
///     observe { [weak self] in self?.draw(model.shapes) }.store(in: &tokens)
///   }
/// }
/// ```
///
/// (For a one-shot tracking, whose handle does *not* cancel when released, see
/// ``PendingTracking``.)
public final class TrackingToken: Sendable, Hashable {
  // A token of an observation is one allocation: whether it was cancelled is kept in
  // the reaction's state, under its lock (`NodeState.tokenCancelled`), and most have
  // nothing else to do when cancelled.

  /// The observation, for a token that keeps one.
  let reaction: Reaction?
  /// What else a cancellation does (a timed observation's timers, removing hooks).
  private let onCancel: (@Sendable () -> Void)?
  /// Whether a token without an observation was cancelled.
  private let cancelledFlag: Locked<Bool>?

  /// A token that does `onCancel` when cancelled, and keeps no observation.
  init(onCancel: @escaping @Sendable () -> Void) {
    reaction = nil
    self.onCancel = onCancel
    cancelledFlag = Locked(false)
  }

  init(_ observation: Reaction) {
    reaction = observation
    onCancel = nil
    cancelledFlag = nil
  }

  /// A token for `observation` that also does `alsoOnCancel` when cancelled (a timed
  /// observation's timers).
  init(_ observation: Reaction, alsoOnCancel: @escaping @Sendable () -> Void) {
    reaction = observation
    onCancel = alsoOnCancel
    cancelledFlag = nil
  }

  /// What the observation's latest run read: each object type and property it now
  /// depends on (property names come from the macro, so they are right on every
  /// platform), the tracked objects' properties first, then each derived value's
  /// `value`. Empty once cancelled.
  public var dependencies: [TrackingDependency] { reaction?.dependencies ?? [] }

  /// What the observation is called in a ``TrackingGraph`` (by default, "observation"
  /// and a number).
  public var name: String? {
    get { reaction?.state.withLock { $0.name } }
    set { reaction?.state.withLock { $0.name = newValue } }
  }

  /// Why the observation last ran: the event of its latest run (``TrackingEvent/Kind/initial``
  /// for the first run), or `nil` before it first ran.
  public var lastEvent: TrackingEvent? { reaction?.lastEvent }

  /// Stops the observation: the callback does not run again, is released, and nothing
  /// of it stays linked to what it read. Calling it more than once does nothing.
  public func cancel() {
    func setting(_ cancelled: inout Bool) -> Bool {
      defer { cancelled = true }
      return !cancelled
    }
    let first =
      if let reaction { reaction.state.withLock { setting(&$0.tokenCancelled) } }
      else { cancelledFlag.unsafelyUnwrapped.withLock { setting(&$0) } }
    guard first else { return }
    reaction?.cancel()
    onCancel?()
  }

  /// Whether ``cancel()`` was called (by you, or by releasing the token).
  public var isCancelled: Bool {
    if let reaction {
      reaction.state.withLock { $0.tokenCancelled }
    } else {
      cancelledFlag.unsafelyUnwrapped.withLock { $0 }
    }
  }

  /// Keeps this token in `set`, so that the observation lives as long as the set
  /// holds it.
  public func store(in set: inout Set<TrackingToken>) {
    set.insert(self)
  }

  deinit { cancel() }

  /// Equal only to itself.
  public static func == (lhs: TrackingToken, rhs: TrackingToken) -> Bool { lhs === rhs }

  /// Hashes the token's identity.
  public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
