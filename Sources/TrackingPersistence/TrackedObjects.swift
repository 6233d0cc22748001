import Foundation
import Tracking

/// A tracked object as the persistence layer reads it: the object, and for each level
/// of its class hierarchy that is `@Trackable`, the registrar and how many property
/// numbers it uses.
struct TrackedObject {
  /// One `@Trackable` class of the hierarchy.
  struct Level {
    let registrar: TrackingRegistrar
    /// The names of its tracked properties by number (empty for a hand-written
    /// conformance, whose properties are numbered at run time).
    let names: [String]
  }

  let object: any Trackable
  let levels: [Level]
  /// The object's stored properties (backing storage included), by label.
  let storedProperties: [(label: String, value: Any)]

  init(_ object: any Trackable) {
    self.object = object
    var levels: [Level] = []
    var stored: [(String, Any)] = []
    var mirror: Mirror? = Mirror(reflecting: object)
    while let current = mirror {  // the class and its superclasses
      var registrar: TrackingRegistrar?
      for child in current.children {
        if let found = child.value as? TrackingRegistrar {
          registrar = found
        } else {
          stored.append((child.label ?? "", child.value))
        }
      }
      if let registrar {
        let names = (current.subjectType as? any Trackable.Type)?._$trackedPropertyNames ?? []
        levels.append(Level(registrar: registrar, names: names))
      }
      mirror = current.superclassMirror
    }
    self.levels = levels
    storedProperties = stored
  }

  /// Records, in the current tracking scope, a read of property `id` of `level`.
  func recordRead(level: Level, property id: Int) {
    read(object, level.registrar, id)
    // A tracked collection is saved as a whole: an in-place edit of one of its
    // elements (which does not notify the property's readers) is a change to save.
    if level.names.indices.contains(id), let value = Mirror(reflecting: object).descendant("_" + level.names[id]) {
      WholeValueReads.record(value)
    }
  }

  /// Records a read of every property of every level: a scope that runs this depends
  /// on any change of the object. (A hand-written conformance's numbers are unknown:
  /// the first 64 are read, as ``TrackingRegistrar`` numbers key paths from 0.)
  func recordReadsOfEveryProperty() {
    for level in levels {
      for id in 0..<(level.names.isEmpty ? 64 : level.names.count) {
        read(object, level.registrar, id)
      }
    }
    WholeValueReads.recordCollections(in: object)  // their elements' in-place edits too
  }

  private func read<Subject: Trackable>(_ subject: Subject, _ registrar: TrackingRegistrar, _ id: Int) {
    registrar.access(subject, property: id, keyPath: \Subject.self)
  }
}

/// The tracked objects reachable from `value`, each once, in the order found: objects
/// inside arrays, dictionaries, sets, optionals, structs, enums and tuples, and inside
/// other tracked objects' stored properties.
///
/// Values that can't hold an object are not walked: trivial types (numbers, and
/// structs and tuples of them), strings, data, dates, URLs, UUIDs — and collections of
/// those, whatever their size, found from the element type without looking at an
/// element. Objects that are not tracked are not walked either (their encoding can't
/// be observed anyway).
func trackedObjects(in value: Any) -> [TrackedObject] {
  var found: [TrackedObject] = []
  var visited = Set<ObjectIdentifier>()
  walk(value, &found, &visited)
  return found
}

private func walk(_ value: Any, _ found: inout [TrackedObject], _ visited: inout Set<ObjectIdentifier>) {
  if let object = value as? any Trackable {
    guard visited.insert(ObjectIdentifier(object)).inserted else { return }
    let tracked = TrackedObject(object)
    found.append(tracked)
    for property in tracked.storedProperties { walk(property.value, &found, &visited) }
    return
  }
  guard canHoldObjects(type(of: value)) else { return }
  if let collection = value as? any Collection, !canHoldObjects(elementType(of: collection)) { return }
  let mirror = Mirror(reflecting: value)
  switch mirror.displayStyle {
  case .class?, nil:
    return  // an untracked object, or a leaf
  default:
    for child in mirror.children { walk(child.value, &found, &visited) }
  }
}

private func elementType<C: Collection>(of collection: C) -> Any.Type { C.Element.self }

/// Whether a value of `type` may contain a reference to an object.
private func canHoldObjects(_ type: Any.Type) -> Bool {
  if _openExistential(type, do: isTrivial) { return false }
  return !leafTypes.contains(ObjectIdentifier(type))
}

private func isTrivial<T>(_: T.Type) -> Bool { _isPOD(T.self) }

/// Types with references inside that are never objects a model could observe.
private let leafTypes: Set<ObjectIdentifier> = [
  ObjectIdentifier(String.self), ObjectIdentifier(Substring.self), ObjectIdentifier(Character.self),
  ObjectIdentifier(Data.self), ObjectIdentifier(Date.self), ObjectIdentifier(URL.self),
  ObjectIdentifier(UUID.self), ObjectIdentifier(Decimal.self),
]
