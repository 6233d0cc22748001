/// Tracks a property of a ``Trackable()`` class that has another property wrapper.
///
/// A macro cannot track `@Clamped(0...10) var volume = 5` by itself: the compiler
/// gives a wrapped property the wrapper's accessors and never asks the macro for its
/// own. Write `@Tracked` in front of the wrapper instead; the two compose, and reads
/// and writes of `volume` are then tracked while the inner wrapper keeps its storage
/// and behaviour:
///
/// ```swift
/// @Trackable final class Mixer {
///   @Tracked @Clamped(0...10) var volume = 5
/// }
///
/// mixer.volume = 42           // tracked write; Clamped stores 10
/// mixer.$volume               // the Clamped wrapper itself
/// mixer.$volume.projectedValue  // Clamped's own projected value
/// ```
///
/// - `$volume` is the inner wrapper (reading it records nothing). Its own projected
///   value is `$volume.projectedValue`: the composition of two property wrappers
///   exposes only the outer one's projection, and a generic wrapper cannot name the
///   type of its inner wrapper's projection.
/// - Every write notifies, even of an equal value: the inner wrapper decides what is
///   stored, so there is nothing to compare before the write.
/// - The inner wrapper's `wrappedValue` setter must be a plain (mutating) `set`. With a
///   `nonmutating set` (`@AppStorage`'s, for one) Swift writes through a copy of the
///   inner wrapper that it only *reads* from `@Tracked`, so the write is not seen. For
///   storage like that, use ``TrackedExternally(_:)`` with an ``ExternalStorage``.
/// - Initialize the property where it is declared (`= 5`) or, in an `init`, through
///   its storage: `_volume = Tracked(wrappedValue: Clamped(wrappedValue: 5, 0...10))`.
/// - `@Tracked var count = 0` (no inner wrapper) works too, but a plain tracked `var`
///   is faster.
///
/// Each wrapped property has a registrar of its own, made with the object; the
/// wrapper reaches the object through Swift's enclosing-instance subscript (the one
/// Combine's `@Published` uses), so it works in classes only.
@propertyWrapper
public struct Tracked<Wrapped> {
  /// The inner property wrapper (or, without one, the value).
  private var wrapped: Wrapped
  /// Records reads and notifies writes of this one property.
  private let registrar = TrackingRegistrar()

  /// Wraps `wrappedValue`: the inner wrapper, which the compiler builds from the
  /// property's initial value and the inner wrapper's attribute.
  public init(wrappedValue: Wrapped) {
    self.wrapped = wrappedValue
  }

  /// Not available: `@Tracked` is for properties of classes, whose reads and writes go
  /// through ``subscript(_enclosingInstance:wrapped:storage:)``.
  @available(*, unavailable, message: "@Tracked applies to properties of a @Trackable class")
  public var wrappedValue: Wrapped {
    get { fatalError("@Tracked applies to properties of a @Trackable class") }
    set { fatalError("@Tracked applies to properties of a @Trackable class") }
  }

  /// The inner wrapper: `$property`. Its own projected value is
  /// `$property.projectedValue`.
  public var projectedValue: Wrapped { wrapped }

  /// The inner wrapper of `object`'s property, read or mutated in place: a read records
  /// an access of the property, a mutation notifies its observers before and after.
  public static subscript<Object: Trackable, Value>(
    _enclosingInstance object: Object,
    wrapped wrappedKeyPath: ReferenceWritableKeyPath<Object, Value>,
    storage storageKeyPath: ReferenceWritableKeyPath<Object, Self>
  ) -> Wrapped {
    get {
      object[keyPath: storageKeyPath].registrar.access(object, keyPath: wrappedKeyPath)
      return object[keyPath: storageKeyPath].wrapped
    }
    _modify {
      let registrar = object[keyPath: storageKeyPath].registrar
      registrar.willSet(object, keyPath: wrappedKeyPath)
      defer { registrar.didSet(object, keyPath: wrappedKeyPath) }
      yield &object[keyPath: storageKeyPath].wrapped
    }
  }
}

extension Tracked: Sendable where Wrapped: Sendable {}

extension Tracked: Encodable where Wrapped: Encodable {
  /// Encodes the inner wrapper (or value) alone: the registrar holds no data.
  public func encode(to encoder: any Encoder) throws {
    try wrapped.encode(to: encoder)
  }
}

extension Tracked: Decodable where Wrapped: Decodable {
  /// Decodes the inner wrapper (or value); the registrar starts with no observers.
  public init(from decoder: any Decoder) throws {
    self.init(wrappedValue: try Wrapped(from: decoder))
  }
}
