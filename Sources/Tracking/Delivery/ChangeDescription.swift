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
  /// The property's key path; for an element of a tracked collection,
  /// ``ElementChange/keyPath`` (which element is known only while the change is being
  /// delivered: see ``EventSource/keyPath``).
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
/// An enum, so that "nothing" is free to make and to drop (it holds no reference) —
/// the common case of a write whose observers ignore what changed.
@usableFromInline
package enum ChangeDescription: Sendable {
  /// Nothing known (a change detected when an observer was installed, or reported by
  /// Apple's registrar), or nothing needed.
  case none
  /// Which property of which object.
  case site(ChangeSite)
  /// The change with its object (its site included).
  case source(EventSource)
  /// A derived value's change, as its computation: the site (the `Derived` and its
  /// `value`) is looked up only when asked for, as most runs never ask.
  case computation(ComputationChange)

  /// Describes a change of `subject` as far as `needs` asks; `site` is called at most
  /// once.
  @inline(__always)
  static func make(
    _ needs: TrackingObserver.Handler.Needs, subject: AnyObject, isDidSet: Bool, site: () -> ChangeSite
  ) -> ChangeDescription {
    switch needs {
    case .nothing: .none
    case .site: .site(site())
    case .source: .source(EventSource(site: site(), subject: subject, isDidSet: isDidSet))
    }
  }

  /// The description of a change queued in a batch (see ``eventSource``).
  init(boxed: EventSource?) {
    self = boxed.map { .source($0) } ?? .none
  }

  /// Which property of which object changed, when known.
  var site: ChangeSite? {
    switch self {
    case .none: nil
    case .site(let site): site
    case .source(let source): source.site
    case .computation(let change): change.computation.changeSite
    }
  }

  /// The change with its object, when made.
  var source: EventSource? {
    if case .source(let source) = self { return source }
    return nil
  }

  /// The source for an event about this change: the live one, or one that only says
  /// what changed (`nil` when nothing is known).
  var eventSource: EventSource? {
    switch self {
    case .none: nil
    case .site(let site): EventSource(describing: site)
    case .source(let source): source
    case .computation(let change): change.computation.changeSite.map { EventSource(describing: $0) }
    }
  }
}

/// The computation whose value changed (see ``ChangeDescription/computation(_:)``).
@usableFromInline
package struct ComputationChange: Sendable {
  let computation: Computation
}
