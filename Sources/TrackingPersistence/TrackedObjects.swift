@_spi(Reflection) import Swift
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
    /// By property number: the storage of each property whose value may be a tracked
    /// collection (its declared type is one, an optional of one, or an existential);
    /// `nil` for the others. `nil` as a whole where the runtime cannot list a class's
    /// fields (Apple systems before macOS 10.15.4 / iOS 13.4): then the property is
    /// found by `Mirror` at each read.
    let collectionFields: [StoredField?]?
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
        let fields = StoredField.collectionFields(
          of: current.subjectType, below: current.superclassMirror?.subjectType, names: names)
        levels.append(Level(registrar: registrar, names: names, collectionFields: fields))
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
    guard level.names.indices.contains(id) else { return }
    if let fields = level.collectionFields {
      fields[id]?.recordReadOfTheWhole(in: object)
    } else if let value = Mirror(reflecting: object).descendant("_" + level.names[id]) {
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

/// A stored property of a class, found once by reflection: where it lies in an
/// instance and its declared type. Reading it through these is what `Mirror` does, minus
/// the work `Mirror` repeats at every read (listing the fields and decoding their
/// types: about 60 000 instructions for a model of three properties).
struct StoredField {
  let offset: Int
  let type: Any.Type

  /// Records a read of the whole of this property's value in `object` (an instance of
  /// the class the field was found in), if it is a tracked collection.
  ///
  /// Reads the field in place, as `Mirror` does: the caller is on the object's
  /// isolation (the persistence layer runs on the model's actor).
  func recordReadOfTheWhole(in object: AnyObject) {
    func record<Value>(_: Value.Type) {
      withExtendedLifetime(object) {
        let base = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
        WholeValueReads.record(base.advanced(by: offset).assumingMemoryBound(to: Value.self).pointee)
      }
    }
    _openExistential(type, do: record)
  }

  /// For each of `names` (property numbers of the class `type`, each stored as
  /// `_name`), the field, if its value may be a tracked collection. The class's own
  /// fields only: those of `superclass` are listed first, and skipped. `nil` where the
  /// runtime cannot list fields.
  static func collectionFields(of type: Any.Type, below superclass: Any.Type?, names: [String]) -> [StoredField?]? {
    guard #available(macOS 10.15.4, iOS 13.4, tvOS 13.4, watchOS 6.2, macCatalyst 13.4, *) else { return nil }
    // `_EachFieldOptions.classType` (bit 0), spelled by its value: the standard library
    // declares the option as a mutable static, which Swift 6 does not let a module read.
    let classFields = _EachFieldOptions(rawValue: 1 << 0)
    var inherited = 0
    if let superclass {
      _forEachField(of: superclass, options: classFields) { _, _, _, _ in
        inherited += 1
        return true
      }
    }
    var own: [String: StoredField] = [:]
    var index = 0
    let listed = _forEachField(of: type, options: classFields) { name, offset, fieldType, _ in
      defer { index += 1 }
      if index >= inherited, mayHoldACollection(fieldType) {
        own[String(cString: name)] = StoredField(offset: offset, type: fieldType)
      }
      return true
    }
    guard listed else { return nil }
    return names.map { own["_" + $0] }
  }
}

/// Whether a value of the declared type `type` may be a tracked collection: it is one,
/// an existential (`any P`, `Any`: it may hold one), or an optional of either.
@available(macOS 10.15.4, iOS 13.4, tvOS 13.4, watchOS 6.2, macCatalyst 13.4, *)
private func mayHoldACollection(_ type: Any.Type) -> Bool {
  if type is any ReadableAsAWhole.Type { return true }
  if let optional = type as? any OptionalWrapper.Type { return mayHoldACollection(optional.wrappedType) }
  // The metadata of every type but a class starts with its kind (the runtime's ABI).
  let kind = unsafeBitCast(type, to: UnsafePointer<UInt>.self).pointee
  return kind == _MetadataKind.existential.rawValue
}

private protocol OptionalWrapper {
  static var wrappedType: Any.Type { get }
}

extension Optional: OptionalWrapper {
  fileprivate static var wrappedType: Any.Type { Wrapped.self }
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
