/// One element of a tracked collection (``TrackedList``, ``TrackedDictionary``): its
/// key, its value and the registrar where the trackings that read it wait.
///
/// **Identity and copies.** A collection's buffer holds its cells by reference, so
/// copies of a collection share them: the cell's registrar is the element's identity,
/// like a ``StateRegistrar`` is a state value's. A cell is mutated only while it is
/// uniquely referenced (the buffer that holds it is unique, and no other buffer holds
/// it); otherwise the mutating collection first clones it, keeping the registrar. So a
/// value read from a cell never changes under a reader, and a copy of the collection
/// never sees another copy's edits.
///
/// **Who notifies.** A cell never notifies by itself: the collection does, while its
/// holder lets it (see ``TrackedElements``), or a ``StateStore`` does after comparing
/// (see `StateChanges`). Both call ``notifyWillSet(_:)`` and ``notifyDidSet(_:)``.
///
/// **Events.** A change of an element is reported with the cell as the event's object,
/// the collection's type (`Root`) as ``TrackingEvent/objectType`` and the key path of
/// the element in the collection (`\TrackedList<Row>[id: id]`,
/// `\TrackedDictionary<Key, Value>[key]`) as ``TrackingEvent/keyPath``: so
/// `event.matches(\TrackedList<Row>[id: 7])` says whether row 7 changed, and
/// ``TrackingEvent/value(of:)`` with that key path reads the element while the callback
/// runs synchronously with the change.
@usableFromInline
final class ElementCell<Root: TrackedCollectionRoot>: Trackable, StateChangeRecipient {
  @usableFromInline
  let key: Root.Key

  /// The element's value; `nil` only during an in-place edit
  /// (``TrackedElements/beginEdit(at:)``, which moves it out so that the caller mutates
  /// it without a copy). Mutated only while the cell is uniquely referenced, so no
  /// access can overlap a mutation: it skips the run-time exclusivity check.
  @exclusivity(unchecked) @usableFromInline
  var value: Root.Value?

  @usableFromInline
  let registrar: TrackingRegistrar

  @inlinable
  init(key: Root.Key, value: Root.Value, registrar: TrackingRegistrar = TrackingRegistrar()) {
    self.key = key
    self.value = value
    self.registrar = registrar
  }

  /// A cell with the same key, value and registrar (the same element, about to be
  /// mutated in one copy of the collection only).
  @inlinable
  func clone() -> ElementCell {
    ElementCell(key: key, value: value!, registrar: registrar)
  }

  /// A cell with the same key and value and a registrar of its own: the element of a
  /// collection that was given a new identity.
  func reidentified() -> ElementCell {
    ElementCell(key: key, value: value!)
  }

  // MARK: Reads and notifications

  /// Records a read of the element in the current tracking scope, if any.
  @inlinable @inline(__always)
  func access() {
    registrar.access(self, property: 0, keyPath: \ElementCell.value)
  }

  /// What a change of the element is reported as: the collection's type and a
  /// marker key path. Which element it was is told by the cell, the change's subject,
  /// while the change is delivered (see ``EventSource/keyPath``): the element's own key
  /// path (`\TrackedList<Row>[id: 7]`) takes the runtime thousands of instructions to
  /// make, so it is made only when a callback asks.
  @inlinable
  func site() -> ChangeSite {
    ChangeSite(
      objectID: ObjectIdentifier(self), objectType: Root.self, propertyID: 0, keyPath: ElementChange.keyPath)
  }

  /// Notifies the readers of the element that it is about to change.
  @inlinable @inline(__always)
  func notifyWillSet(_ id: Int = 0) {
    if registrar.storage.isRead(0) { registrar.storage.willSet(0, subject: self, site: site) }
    if _slowPath(TrackingInterop.isRelaying) { TrackingInterop.relayWillSet(registrar.storage, 0) }
  }

  /// Notifies the readers of the element that it has changed.
  @inlinable @inline(__always)
  func notifyDidSet(_ id: Int = 0) {
    if registrar.storage.isRead(0) { registrar.storage.didSet(0, subject: self, site: site) }
    if _slowPath(TrackingInterop.isRelaying) { TrackingInterop.relayDidSet(registrar.storage, 0) }
  }

  /// The element's key path in its collection (`\TrackedList<Row>[id: key]`).
  var elementKeyPath: AnyKeyPath { Root._elementKeyPath(key) }

  /// The element's value as a reading of `Root`'s element key path: what
  /// ``TrackingEvent/value(of:)`` returns for a change of this element.
  func eventValue<Value>(for keyPath: AnyKeyPath, as type: Value.Type) -> Value? {
    guard keyPath == elementKeyPath else { return nil }
    return value as? Value
  }
}

/// A cell, seen from outside its collection's generic context: how a change of an
/// element names its key path and reads its value for an event.
@usableFromInline
enum ElementChange {
  /// The key path a change of an element is reported with until its cell names it: a
  /// marker, never a property's. (`nonisolated(unsafe)`: a key path is immutable, safe
  /// to share although not declared `Sendable`.)
  @usableFromInline
  nonisolated(unsafe) static let keyPath: AnyKeyPath = \Marker.value

  @usableFromInline
  struct Marker { var value = 0 }
}

protocol ElementCellValue: AnyObject {
  var elementKeyPath: AnyKeyPath { get }
  func eventValue<Value>(for keyPath: AnyKeyPath, as type: Value.Type) -> Value?
}

extension ElementCell: ElementCellValue {}
