/// A value that notifies the readers of what changes inside it, so that an in-place
/// mutation of a ``Trackable()`` class's property of this type notifies those readers
/// instead of every reader of the property: the tracked collections (``TrackedList``,
/// ``TrackedDictionary``). The class's generated `_modify` calls the registrar's
/// `_beginModify`, `_willModify`, `_endModify` and `_didModify`, which pick this path
/// by the property's static type. Not meant to be adopted outside this module.
public protocol _TracksChangesInPlace {
  /// What a held mutation changed.
  associatedtype _Changes: _DeliverableChanges
  /// Starts recording what the mutation changes.
  mutating func _$beginHeldMutation()
  /// Stops recording and returns what changed, to be delivered once the holder's
  /// access to the value has ended.
  mutating func _$endHeldMutation() -> _Changes
}

/// What a held mutation of a ``_TracksChangesInPlace`` value changed.
public protocol _DeliverableChanges {
  /// Whether the value was replaced as a whole (swapped, or assigned through `inout`):
  /// then every reader of the property is notified instead.
  var _replaced: Bool { get }
  /// Notifies the readers of what changed: will-sets, then did-sets.
  func _deliver()
}

/// What ``TrackingRegistrar/_beginModify(_:)`` returns for a value that does not track
/// its own changes: the property's will-set and did-set are due.
public struct _Modification {
  @inlinable @inline(__always)
  init() {}
}

/// What ``TrackingRegistrar/_beginModify(_:)`` returns for a value that tracks its own
/// changes: it is recording them.
public struct _HeldModification {
  @inlinable @inline(__always)
  init() {}
}

// The generated `_modify` of a tracked property:
//
//     _modify {
//       registrar.access(self, property: n, keyPath: \.name)
//       let modification = registrar._beginModify(&_name)
//       registrar._willModify(self, property: n, keyPath: \.name, modification)
//       defer {
//         registrar._didModify(self, property: n, keyPath: \.name, registrar._endModify(&_name, modification))
//       }
//       yield &_name
//     }
//
// For most types `_beginModify` and `_endModify` do nothing, and `_willModify` and
// `_didModify` are the property's will-set and did-set. A value that tracks its own
// changes starts recording them in `_beginModify`; `_willModify` says nothing;
// `_endModify` takes the record out; `_didModify` delivers it. No callback runs inside
// an in-out access to the property (`_beginModify`, `_endModify`, the `yield`), so
// callbacks may read the property again without a simultaneous access.
extension TrackingRegistrar {
  /// Before an in-place mutation: nothing to start.
  @inlinable @inline(__always)
  public func _beginModify<Value>(_ value: inout Value) -> _Modification {
    _Modification()
  }

  /// Before an in-place mutation of a value that tracks its own changes: starts
  /// recording them.
  @inlinable @inline(__always)
  public func _beginModify<Value: _TracksChangesInPlace>(_ value: inout Value) -> _HeldModification {
    value._$beginHeldMutation()
    return _HeldModification()
  }

  /// Before an in-place mutation of property `id`: its will-set.
  @inlinable @inline(__always)
  public func _willModify<Subject: Trackable, Member>(
    _ subject: Subject, property id: Int, keyPath: @autoclosure () -> KeyPath<Subject, Member>,
    _ modification: _Modification
  ) {
    willSet(subject, property: id, keyPath: keyPath())
  }

  /// Before an in-place mutation of a property that tracks its own changes: nothing
  /// is said to the property's readers.
  @inlinable @inline(__always)
  public func _willModify<Subject: Trackable, Member>(
    _ subject: Subject, property id: Int, keyPath: @autoclosure () -> KeyPath<Subject, Member>,
    _ modification: _HeldModification
  ) {}

  /// The key-path form of ``_willModify(_:property:keyPath:_:)``.
  @inlinable @inline(__always)
  public func _willModify<Subject: Trackable, Member>(
    _ subject: Subject, keyPath: KeyPath<Subject, Member>, _ modification: _Modification
  ) {
    willSet(subject, keyPath: keyPath)
  }

  /// The key-path form, for a property that tracks its own changes.
  @inlinable @inline(__always)
  public func _willModify<Subject: Trackable, Member>(
    _ subject: Subject, keyPath: KeyPath<Subject, Member>, _ modification: _HeldModification
  ) {}

  /// After an in-place mutation: nothing to take out.
  @inlinable @inline(__always)
  public func _endModify<Value>(_ value: inout Value, _ modification: _Modification) -> _Modification {
    modification
  }

  /// After an in-place mutation of a value that tracks its own changes: takes out
  /// what changed.
  @inlinable @inline(__always)
  public func _endModify<Value: _TracksChangesInPlace>(
    _ value: inout Value, _ modification: _HeldModification
  ) -> Value._Changes {
    value._$endHeldMutation()
  }

  /// After an in-place mutation of property `id`, its access ended: its did-set.
  @inlinable @inline(__always)
  public func _didModify<Subject: Trackable, Member>(
    _ subject: Subject, property id: Int, keyPath: @autoclosure () -> KeyPath<Subject, Member>,
    _ modification: _Modification
  ) {
    didSet(subject, property: id, keyPath: keyPath())
  }

  /// After an in-place mutation of a property that tracks its own changes, its access
  /// ended: delivers what changed, or, if the value was replaced as a whole, notifies
  /// every reader of the property (will-set and did-set, both after the fact).
  @inlinable @inline(__always)
  public func _didModify<Subject: Trackable, Member, Changes: _DeliverableChanges>(
    _ subject: Subject, property id: Int, keyPath: @autoclosure () -> KeyPath<Subject, Member>,
    _ changes: Changes
  ) {
    if changes._replaced {
      willSet(subject, property: id, keyPath: keyPath())
      didSet(subject, property: id, keyPath: keyPath())
    } else {
      changes._deliver()
    }
  }

  /// The key-path form of ``_didModify(_:property:keyPath:_:)``.
  @inlinable @inline(__always)
  public func _didModify<Subject: Trackable, Member>(
    _ subject: Subject, keyPath: KeyPath<Subject, Member>, _ modification: _Modification
  ) {
    didSet(subject, keyPath: keyPath)
  }

  /// The key-path form, for a property that tracks its own changes.
  @inlinable @inline(__always)
  public func _didModify<Subject: Trackable, Member, Changes: _DeliverableChanges>(
    _ subject: Subject, keyPath: KeyPath<Subject, Member>, _ changes: Changes
  ) {
    if changes._replaced {
      willSet(subject, keyPath: keyPath)
      didSet(subject, keyPath: keyPath)
    } else {
      changes._deliver()
    }
  }
}
