/// Which property of which object changed, as plain values: what a receiver that keeps
/// the description of a change needs (a continuous observation's
/// ``TrackingToken/lastEvent``), without the object and without an allocation.
///
/// `@unchecked Sendable`: key paths are immutable objects, safe to share although not
/// declared `Sendable`; the rest are values.
@usableFromInline
package struct ChangeSite: @unchecked Sendable {
  let objectID: ObjectIdentifier
  /// The object's type as the registrar saw it (its static type, which names the
  /// properties of its own registrar). A plain metatype, one word: a site is copied
  /// on every delivery, and the name is looked up rarely.
  let objectType: Any.Type
  /// The property's number in that registrar.
  let propertyID: Int
  let keyPath: AnyKeyPath

  /// Made by the registrar's inlined write path.
  @usableFromInline
  init(objectID: ObjectIdentifier, objectType: Any.Type, propertyID: Int, keyPath: AnyKeyPath) {
    self.objectID = objectID
    self.objectType = objectType
    self.propertyID = propertyID
    self.keyPath = keyPath
  }

  /// Looked up when asked for: the macro's table of names is built on each call.
  var propertyName: String? { (objectType as? any Trackable.Type)?.trackedPropertyName(propertyID) }
}

/// How a change reaches the observers it notifies, described only as far as their
/// callbacks need (``TrackingObserver/Handler/Needs``): a callback that ignores the
/// change costs nothing; one that keeps which property changed gets a ``ChangeSite``
/// (values, no allocation); only a callback that takes a ``TrackingEvent`` costs an
/// ``EventSource`` (an allocation), which can also read the new value.
///
/// Neither is known for a change whose object and property are unknown (one detected
/// when an observer was installed, or reported by Apple's registrar).
///
/// `@unchecked Sendable`: as ``ChangeSite``; the source is `Sendable`.
@usableFromInline
package struct ChangeDescription: @unchecked Sendable {
  // The site's fields, flat and with a non-optional key path: an optional site, or an
  // optional key path, made the optimizer copy descriptions through `Optional`'s value
  // witnesses (it merges the copies of optional references of one shape into a
  // generic function), about seventy instructions per copy on every delivery.
  private let objectID: ObjectIdentifier?
  private let objectType: Any.Type
  private let propertyID: Int
  /// `unknownKeyPath` when the site is unknown.
  private let keyPath: AnyKeyPath
  /// The change with its object, made only for callbacks that take events.
  let source: EventSource?

  /// Stands for "no key path"; never the key path of a tracked property. (Key paths
  /// are immutable objects.)
  private nonisolated(unsafe) static let unknownKeyPath: AnyKeyPath = \ChangeDescription.propertyID

  init(site: ChangeSite?, source: EventSource?) {
    objectID = site?.objectID
    objectType = site?.objectType ?? Never.self
    propertyID = site?.propertyID ?? 0
    keyPath = site?.keyPath ?? Self.unknownKeyPath
    self.source = source
  }

  /// The description of a change queued in a batch (see ``boxed``).
  init(boxed: EventSource?) {
    self.init(site: boxed?.site, source: boxed)
  }

  /// Nothing known, or nothing needed.
  static let none = ChangeDescription(site: nil, source: nil)

  /// Describes a change of `subject` as far as `needs` asks; `site` is called at most
  /// once.
  @inline(__always)
  static func make(
    _ needs: TrackingObserver.Handler.Needs, subject: AnyObject, isDidSet: Bool, site: () -> ChangeSite
  ) -> ChangeDescription {
    switch needs {
    case .nothing: return .none
    case .site: return ChangeDescription(site: site(), source: nil)
    case .source:
      let site = site()
      return ChangeDescription(site: site, source: EventSource(site: site, subject: subject, isDidSet: isDidSet))
    }
  }

  /// Which property of which object changed, when known.
  var site: ChangeSite? {
    guard let objectID else { return nil }
    return ChangeSite(objectID: objectID, objectType: objectType, propertyID: propertyID, keyPath: keyPath)
  }

  /// The source for an event about this change: the live one, or one that only says
  /// what changed (`nil` when nothing is known).
  var eventSource: EventSource? {
    if let source { return source }
    return site.map { EventSource(describing: $0) }
  }

  /// The description as one object, for a change queued in a batch: the live source,
  /// or one that only says what changed (an allocation, shared by every entry of the
  /// change).
  var boxed: EventSource? { eventSource }
}
