/// A tracked property of a ``Trackable()`` class whose first value is computed on
/// first read, from the object: what `lazy var` is to a plain class.
///
/// `lazy var` itself cannot be tracked: a tracked property is computed, and Swift
/// does not allow `lazy` on a computed property (the macro reports it and offers this
/// rewrite). Name a method that computes the first value instead:
///
/// ```swift
/// @Trackable final class Photo {
///   var pixels: [UInt8] = []
///   @TrackedLazy(Photo.makeThumbnail) var thumbnail: Image
///   private func makeThumbnail() -> Image { Image(downsampling: pixels) }
///
///   // or, with a closure that receives the object:
///   @TrackedLazy(initially: { (photo: Photo) in photo.pixels.count }) var size
/// }
/// ```
///
/// - The first read computes the value and stores it without notifying anyone: no one
///   can have seen another value. Reads inside a tracking scope are recorded, the
///   first one included (with whatever the computation itself reads).
/// - A write before the first read stores the value without computing the first one.
///   Writes notify the property's observers, as any tracked write does (every write,
///   even of an equal value).
/// - Like `lazy var`, the first read is not synchronized: two threads reading it for
///   the first time at once may both compute it.
///
/// Each such property has a registrar of its own, made with the object; the wrapper
/// reaches the object through Swift's enclosing-instance subscript (the one Combine's
/// `@Published` uses), so it works in classes only.
@propertyWrapper
public struct TrackedLazy<Object: Trackable, Value> {
  private var value: Value?
  private let initialValue: (Object) -> Value
  /// Records reads and notifies writes of this one property.
  private let registrar = TrackingRegistrar()

  /// Computes the first value with an instance method of the class, named unapplied:
  /// `@TrackedLazy(Photo.makeThumbnail)`.
  public init(_ method: @escaping (Object) -> () -> Value) {
    self.initialValue = { object in method(object)() }
  }

  /// Computes the first value with a closure that receives the object:
  /// `@TrackedLazy(initially: { (photo: Photo) in photo.pixels.count })`.
  public init(initially initialValue: @escaping (Object) -> Value) {
    self.initialValue = initialValue
  }

  /// Not available: `@TrackedLazy` is for properties of classes, whose reads and writes
  /// go through ``subscript(_enclosingInstance:wrapped:storage:)``.
  @available(*, unavailable, message: "@TrackedLazy applies to properties of a @Trackable class")
  public var wrappedValue: Value {
    get { fatalError("@TrackedLazy applies to properties of a @Trackable class") }
    set { fatalError("@TrackedLazy applies to properties of a @Trackable class") }
  }

  /// The value of `object`'s property, computed on first read.
  public static subscript(
    _enclosingInstance object: Object,
    wrapped wrappedKeyPath: ReferenceWritableKeyPath<Object, Value>,
    storage storageKeyPath: ReferenceWritableKeyPath<Object, Self>
  ) -> Value {
    get {
      object[keyPath: storageKeyPath].registrar.access(object, keyPath: wrappedKeyPath)
      return initializedValue(object, storageKeyPath)
    }
    set {
      let registrar = object[keyPath: storageKeyPath].registrar
      registrar.willSet(object, keyPath: wrappedKeyPath)
      defer { registrar.didSet(object, keyPath: wrappedKeyPath) }
      object[keyPath: storageKeyPath].value = newValue
    }
    _modify {
      _ = initializedValue(object, storageKeyPath)
      let registrar = object[keyPath: storageKeyPath].registrar
      registrar.willSet(object, keyPath: wrappedKeyPath)
      defer { registrar.didSet(object, keyPath: wrappedKeyPath) }
      yield &object[keyPath: storageKeyPath].value!
    }
  }

  /// The stored value, computed and stored first (notifying no one) if there is none.
  private static func initializedValue(_ object: Object, _ storage: ReferenceWritableKeyPath<Object, Self>) -> Value {
    if let value = object[keyPath: storage].value { return value }
    let value = object[keyPath: storage].initialValue(object)
    object[keyPath: storage].value = value
    return value
  }
}
