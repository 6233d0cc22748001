/// One property a tracking depends on: the object's type and the property's name.
public struct TrackingDependency: Hashable, Sendable, CustomStringConvertible {
  /// The type of the object read.
  public let objectType: Any.Type
  /// The property's name, when known; `nil` for a dependency on every property of the
  /// object (whole-object observation) or a property the macro did not number.
  public let propertyName: String?
  /// The property's number in its object's registrar; `nil` for every property.
  public let propertyID: Int?

  /// `Type.property`, `Type.#3` for an unnamed property, or `Type.*` for all of them.
  public var description: String {
    let property = propertyName ?? propertyID.map { "#\($0)" } ?? "*"
    return "\(objectType).\(property)"
  }

  /// Equal when they name the same property of the same type.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.objectType == rhs.objectType && lhs.propertyID == rhs.propertyID && lhs.propertyName == rhs.propertyName
  }

  /// Hashes the type and the property.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(objectType))
    hasher.combine(propertyID)
    hasher.combine(propertyName)
  }

  /// The dependencies on `properties` of an object of `type`: one per property, and one
  /// for every property when they include all.
  static func all(of type: any Trackable.Type, _ properties: PropertySet) -> [TrackingDependency] {
    var result = properties.identifiers.map {
      TrackingDependency(objectType: type, propertyName: type.trackedPropertyName($0), propertyID: $0)
    }
    if properties.includesAll { result.append(TrackingDependency(objectType: type, propertyName: nil, propertyID: nil)) }
    return result
  }
}
