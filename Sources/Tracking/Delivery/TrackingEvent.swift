import CTrackingSupport

/// What a tracking callback is told: why it runs, and — for a change — which property
/// of which object changed. The equivalent of Apple's `ObservationTracking.Event`
/// (SE-0506), with more to say.
///
/// ```swift
/// withTracking(options: [.willSet, .didSet]) { _ = model.count } onChange: { event in
///   if event.matches(\Model.count) { print(event.kind, event.value(of: \Model.count)!) }
/// }
/// ```
///
/// - ``kind``: ``Kind/initial`` (the first run of a continuous tracking),
///   ``Kind/willSet``, ``Kind/didSet`` or ``Kind/deinit``.
/// - ``matches(_:)``: whether the change concerns a property (always `false` for
///   `initial` and `deinit`).
/// - ``cancel()``: ends the tracking from inside its callback; cancelling at `willSet`
///   suppresses the `didSet` that would follow.
/// - Beyond Apple: ``propertyName``, ``objectType`` and ``object`` say what changed
///   (names come from the macro, so they are right on Linux too), and
///   ``value(of:)`` reads the property's value while the callback runs synchronously
///   with the change — the old value at `willSet`, the new one at `didSet`.
///
/// An event is `Sendable`: hand it to another task freely. What it says about the
/// change stays valid; ``value(of:)``, which reads the object, returns `nil` once the
/// synchronous callback has returned (the object may have changed since, and may not be
/// safe to read from another thread). So does an event delivered on a callback's actor
/// after the change (``OneShotDelivery/onActor``, for a change made elsewhere).
///
/// Apple's `Event` is `~Copyable` and its callbacks take it `borrowing`; a closure
/// written that way, `{ (event: borrowing TrackingEvent) in … }`, is accepted here too.
///
/// A change that another thread made while a tracking's `apply` was running is
/// detected when the tracking is installed and reported right away; which property it
/// was is then unknown (``propertyName`` is `nil` and ``matches(_:)`` returns `true`).
public struct TrackingEvent: Sendable, CustomStringConvertible {
  /// Why a tracking callback runs.
  ///
  /// An enum, so that a `switch` over the four kinds needs no `default` (SE-0506's own
  /// example switches over them exhaustively; Apple's `Kind` is a struct, which would
  /// reject it).
  public enum Kind: Hashable, Sendable, CustomStringConvertible {
    /// The first run of a continuous tracking (nothing changed yet).
    case initial
    /// A property the tracking read is about to change.
    case willSet
    /// A property the tracking read has changed.
    case didSet
    /// An object the tracking read was deallocated.
    case `deinit`

    /// `initial`, `willSet`, `didSet` or `deinit`.
    public var description: String {
      switch self {
      case .initial: "initial"
      case .willSet: "willSet"
      case .didSet: "didSet"
      case .deinit: "deinit"
      }
    }
  }

  /// Why the callback runs.
  public let kind: Kind
  let source: EventSource?
  /// What ``cancel()`` ends. Unchecked: cancelling is thread-safe (an atomic state word
  /// decides; see ``TrackingObserver``).
  let canceller: UncheckedSendable<(any TrackingCancellable)?>

  init(kind: Kind, source: EventSource?, canceller: (any TrackingCancellable)?) {
    self.kind = kind
    self.source = source
    self.canceller = UncheckedSendable(canceller)
  }

  /// The name of the property that changed, when known.
  public var propertyName: String? { source?.site?.propertyName }

  /// The type of the object whose property changed, when known.
  public var objectType: Any.Type? { source?.site?.objectType }

  /// The identity of the object whose property changed, when known.
  public var object: ObjectIdentifier? { source?.site?.objectID }

  /// The key path of the property that changed, when known.
  public var keyPath: AnyKeyPath? { source?.keyPath }

  /// The property's number in its object's registrar, when known.
  public var propertyID: Int? { source?.site?.propertyID }

  /// Whether this event is about a change of the property at `keyPath`.
  ///
  /// Takes any key path rooted at the model, as Apple's `matches(_:)` does: a literal
  /// (`event.matches(\Model.count)`), a `KeyPath` or a `PartialKeyPath<Model>` value.
  ///
  /// `false` for ``Kind/initial`` and ``Kind/deinit``. For a change whose property is
  /// unknown (one detected when the tracking was installed), `true`: the property may
  /// be this one, and a caller filtering on it must not miss the change.
  public func matches<Root>(_ keyPath: PartialKeyPath<Root>) -> Bool {
    guard kind == .willSet || kind == .didSet else { return false }
    guard let known = source?.keyPath else { return true }
    return known == keyPath
  }

  /// Whether this event is about a change of `keyPath` of `object`.
  public func isChange<Root: AnyObject, Value>(of object: Root, _ keyPath: KeyPath<Root, Value>) -> Bool {
    guard kind == .willSet || kind == .didSet, let source else { return false }
    return source.site?.objectID == ObjectIdentifier(object) && source.keyPath == keyPath
  }

  /// The value of the changed property while the callback runs synchronously with the
  /// change: the old value at ``Kind/willSet``, the new value at ``Kind/didSet``.
  ///
  /// `nil` when this event is not about `keyPath`, when its property is unknown, or
  /// once the synchronous callback has returned (read it in the callback if you need
  /// it later).
  public func value<Root, Value: Sendable>(of keyPath: KeyPath<Root, Value>) -> Value? {
    guard kind == .willSet || kind == .didSet, let source, source.keyPath == keyPath else { return nil }
    return source.read(keyPath)
  }

  /// Ends the tracking that received this event: a one-shot tracking does not fire
  /// again (cancelling at `willSet` suppresses its `didSet`, also when the callbacks
  /// are delivered on an actor after the change), a continuous one does not run again.
  ///
  /// Also at ``Kind/deinit``: a tracking over several objects then hears nothing of the
  /// others. (Apple's shipped code ignores `cancel()` at `deinit`; the proposal says
  /// cancelling prevents any further event, and this follows the proposal.)
  public func cancel() {
    _ = canceller.value?.cancel()
  }

  /// The kind, and the object type and property when known.
  public var description: String {
    guard let source, let site = source.site else { return "TrackingEvent(\(kind))" }
    let what = site.propertyName ?? source.keyPath.map { "\($0)" } ?? "an element"
    return "TrackingEvent(\(kind) \(site.objectType).\(what))"
  }
}

/// Something a ``TrackingEvent`` can cancel: an installed observer, or a continuous
/// tracking.
protocol TrackingCancellable: AnyObject {
  /// Ends the tracking; returns whether it was still running.
  @discardableResult func cancel() -> Bool
}
