/// Makes two-way bindings to the properties of an object, such as a ``Tracking``
/// `@Trackable` model: the equivalent of SwiftUI's `Bindable`, without SwiftUI.
///
/// ```swift
/// @Trackable final class Profile { var name = ""; var address = Address() }
///
/// let profile = Profile()
/// let bindable = TrackedBindable(profile)
/// let name = bindable.name            // TrackedBinding<String>
/// name.wrappedValue = "Ada"           // sets profile.name; trackings of it fire
/// let city = bindable.address.city    // writes profile.address in place
/// ```
///
/// It is also a property wrapper, as SwiftUI's `Bindable` is: `$` gives the bindable.
///
/// ```swift
/// struct ProfileEditor {
///   @TrackedBindable var profile: Profile
///   var name: TrackedBinding<String> { $profile.name }
/// }
/// ```
///
/// Reading through a binding inside `withTracking` records the read like reading the
/// property directly. The bindable holds the object strongly, as its bindings do.
@dynamicMemberLookup
@propertyWrapper
public struct TrackedBindable<Object: AnyObject> {
  /// The object whose properties the bindings read and write.
  public let wrappedValue: Object

  /// Creates a bindable for `object`.
  public init(_ object: Object) {
    self.wrappedValue = object
  }

  /// Creates a bindable for `wrappedValue`: `@TrackedBindable var model = Model()`, or
  /// a stored `@TrackedBindable var model: Model` given at `init`.
  public init(wrappedValue: Object) {
    self.wrappedValue = wrappedValue
  }

  /// The bindable itself, as `$model`: `$model.name` is a binding to `model.name`.
  public var projectedValue: TrackedBindable<Object> { self }

  /// A binding to the object's property at `keyPath`; writes mutate it in place.
  public subscript<Value>(
    dynamicMember keyPath: ReferenceWritableKeyPath<Object, Value>
  ) -> TrackedBinding<Value> {
    let object = wrappedValue
    return TrackedBinding(
      get: { object[keyPath: keyPath] },
      modify: { body in body(&object[keyPath: keyPath]) })
  }
}
