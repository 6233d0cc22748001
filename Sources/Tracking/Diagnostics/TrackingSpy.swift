import CTrackingSupport

/// One notification the runtime sent, as a spy sees it (MobX's `spy`): which change,
/// and how many observers it reached.
public struct TrackingNotification: Sendable, CustomStringConvertible {
  /// The change: its kind (`willSet` or `didSet`), object type and property.
  public let event: TrackingEvent
  /// How many observers were due for it.
  public let observerCount: Int

  /// `willSet Model.count → 2 observers`.
  public var description: String {
    let type = event.objectType.map { "\($0)." } ?? ""
    let property = event.propertyName ?? event.propertyID.map { "#\($0)" } ?? "?"
    return "\(event.kind) \(type)\(property) → \(observerCount) observer\(observerCount == 1 ? "" : "s")"
  }
}

extension TrackingDiagnostics {
  /// Registers a spy: `handler` receives every notification sent to observers from now
  /// on, on the thread that makes the change, before the observers run. For debugging
  /// ("why did this run?"): log them, or break in the handler.
  ///
  /// A spy costs nothing while none is registered: writes check one global word, and
  /// only on the path that already has observers to notify.
  @discardableResult
  public static func addSpy(_ handler: @escaping @Sendable (TrackingNotification) -> Void) -> HandlerID {
    Spies.add(handler)
  }

  /// Removes a spy registered with ``addSpy(_:)``.
  public static func removeSpy(_ id: HandlerID) {
    Spies.remove(id)
  }
}

/// The registered spies, and the word that says whether there are any.
enum Spies {
  private static let registry = Locked<(next: Int, all: [Int: @Sendable (TrackingNotification) -> Void])>((0, [:]))

  /// Whether a spy is registered: one relaxed load.
  @inline(__always)
  static var isActive: Bool { tracking_spy_count() != 0 }

  static func add(_ handler: @escaping @Sendable (TrackingNotification) -> Void) -> TrackingDiagnostics.HandlerID {
    registry.withLock { registry in
      defer { registry.next += 1 }
      registry.all[registry.next] = handler
      tracking_set_spy_count(registry.all.count)
      return TrackingDiagnostics.HandlerID(rawValue: registry.next)
    }
  }

  static func remove(_ id: TrackingDiagnostics.HandlerID) {
    registry.withLock { registry in
      registry.all[id.rawValue] = nil
      tracking_set_spy_count(registry.all.count)
    }
  }

  /// Sends one notification to every spy.
  static func report(_ kind: TrackingEvent.Kind, _ source: EventSource, observers: Int) {
    let handlers = registry.withLock { Array($0.all.values) }
    let notification = TrackingNotification(
      event: TrackingEvent(kind: kind, source: source, canceller: nil), observerCount: observers)
    for handler in handlers { handler(notification) }
  }
}
