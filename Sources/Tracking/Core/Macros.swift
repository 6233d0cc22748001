/// Makes a class's stored properties tracked: reads inside ``withTracking(_:onChange:)``
/// (and everything built on it) are recorded, and writes notify the trackings that
/// read them.
///
/// ```swift
/// @Trackable
/// final class Player {
///   var name = ""
///   var score = 0
///   @TrackingIgnored var cache: [String: Int] = [:]
/// }
/// ```
///
/// What the macro does:
/// - Each stored instance `var` becomes a computed property over private storage
///   `_name`; `let`, `static`, `lazy`-free computed properties and
///   ``TrackingIgnored()`` properties are left alone.
/// - Initial values, `willSet`/`didSet` bodies, attributes and access levels are kept;
///   properties without an initial value are initialized in `init` as usual.
/// - Setting an `Equatable` property to an equal value (or an object property to the
///   same object) stores it without notifying, as Apple's macro does.
/// - In-place mutation (`model.items.append(x)`) does not copy the value.
/// - Works for `final` and non-final classes, generic classes, and tracked
///   subclasses of tracked classes. Applying it to a struct, enum, actor or protocol
///   is a compile-time error, as is applying it where a property cannot be tracked
///   (`lazy`, `weak`/`unowned`, several bindings in one `var`).
/// - A `Codable` class without its own `CodingKeys` encodes and decodes under the
///   properties' own names.
///
/// The equivalent of Apple's `@Observable`.
@attached(
  member,
  names: named(_$trackingRegistrar), named(access), named(withMutation), named(CodingKeys))
@attached(memberAttribute)
@attached(extension, conformances: Trackable)
public macro Trackable() = #externalMacro(module: "TrackingMacros", type: "TrackableMacro")

/// Added by ``Trackable()`` to each stored property, with the property's number in
/// the class's registrar. Not meant to be written by hand.
@attached(accessor, names: named(init), named(get), named(set), named(_modify))
@attached(peer, names: prefixed(_))
public macro TrackedProperty(_ id: Int) = #externalMacro(module: "TrackingMacros", type: "TrackedPropertyMacro")

/// Leaves a property of a ``Trackable()`` class untracked: reading it records
/// nothing and writing it notifies no one. The equivalent of Apple's
/// `@ObservationIgnored`.
@attached(accessor, names: named(willSet))
public macro TrackingIgnored() = #externalMacro(module: "TrackingMacros", type: "TrackingIgnoredMacro")

/// Makes a property of a ``Trackable()`` class tracked while its value lives in
/// external storage.
///
/// ```swift
/// @Trackable final class Settings {
///   @TrackedExternally(DefaultsValue(key: "volume", default: 0.5))
///   var volume: Double
/// }
/// ```
///
/// Reads and writes of `volume` are tracked like a stored property's; the value is
/// loaded from and stored to the ``ExternalStorage`` on every access. Changes made to
/// the storage behind the object's back are not seen until the property is written.
@attached(accessor, names: named(get), named(set))
@attached(peer, names: prefixed(_))
public macro TrackedExternally<Storage: ExternalStorage>(_ storage: Storage) =
  #externalMacro(module: "TrackingMacros", type: "TrackedExternallyMacro")
