/// Makes a class's stored properties tracked: reads inside ``withTracking(_:onChange:)``
/// (and everything built on it) are recorded, and writes notify the trackings that
/// read them.
///
/// ```swift
/// @Trackable
/// final class Player {
///   var name = ""
///   var score = 0
///   weak var opponent: Player?
///   @TrackingIgnored var cache: [String: Int] = [:]
/// }
/// ```
///
/// What is tracked:
/// - every stored instance `var`, including `weak` and `unowned` ones (their storage
///   keeps the ownership; a `weak` property that becomes `nil` because its object went
///   away notifies no one, as with Apple's macro) and those inside `#if` blocks;
/// - `@TrackedExternally(storage)` properties, whose value lives elsewhere;
/// - `@Tracked` properties, which keep another property wrapper (`@Tracked @Clamped var
///   volume = 5`), and `@TrackedLazy` ones, initialized on first read.
///
/// What is left alone: `let` constants, `static`/`class` properties, computed
/// properties (they are tracked through the stored properties they read) and
/// ``TrackingIgnored()`` properties.
///
/// What the macro does:
/// - Each tracked `var` becomes a computed property over private storage `_name`.
///   Initial values, `willSet`/`didSet` bodies, attributes and access levels are kept;
///   properties without an initial value are initialized in `init` as usual.
/// - Setting an `Equatable` property to an equal value (or an object property to the
///   same object) stores it without notifying, as Apple's macro does.
/// - In-place mutation (`model.items.append(x)`) does not copy the value.
/// - A class that declares its own `access(keyPath:)` or `withMutation(keyPath:_:)`
///   (to log, or to forward to another registrar) gets no generated copy of it, and
///   its tracked properties call those methods on every read and write, as Apple's
///   do. Other classes take a faster path that skips them.
/// - The class conforms to ``Trackable`` and, where Apple's `Observation` module
///   exists and with its availability, to Apple's `Observable` (so SwiftUI's
///   `@Bindable` and `.environment(_:)` accept it; see
///   ``TrackingInterop/relaysToAppleObservation``). The class's own `@available`
///   attributes are copied onto these conformances.
/// - Works for `final` and non-final classes, generic classes, main-actor classes and
///   tracked subclasses of tracked classes. Applying it to a struct, enum, actor or
///   protocol is a compile-time error, as is a property that cannot be tracked:
///   `lazy` (Swift does not allow it on a computed property; use `@TrackedLazy`),
///   several bindings in one `var`, tuple patterns.
/// - A `Codable` class without its own `CodingKeys` encodes and decodes under the
///   properties' own names.
///
/// The equivalent of Apple's `@Observable`; <doc:TheTrackableMacro> lists the
/// differences.
@attached(
  member, conformances: Trackable,
  names: named(_$trackingRegistrar), named(access), named(withMutation), named(_$trackedPropertyNames),
  named(CodingKeys))
@attached(memberAttribute)
@attached(extension, conformances: Trackable, TrackingInterop.AppleObservable)
public macro Trackable() = #externalMacro(module: "TrackingMacros", type: "TrackableMacro")

/// Added by ``Trackable()`` to each stored property, with the property's number in
/// the class's registrar. Not meant to be written by hand.
@attached(accessor, names: named(init), named(get), named(set), named(_modify))
@attached(peer, names: prefixed(_))
public macro TrackedProperty(_ id: Int) = #externalMacro(module: "TrackingMacros", type: "TrackedPropertyMacro")

/// Added by ``Trackable()`` to each stored property of a class that declares its own
/// `access(keyPath:)` or `withMutation(keyPath:_:)`: the property's accessors call
/// them. Not meant to be written by hand.
@attached(accessor, names: named(init), named(get), named(set), named(_modify))
@attached(peer, names: prefixed(_))
public macro TrackedProperty() = #externalMacro(module: "TrackingMacros", type: "TrackedPropertyMacro")

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

/// Chooses what counts as a change when this property of a ``Trackable()`` class is set:
/// ``TrackedEqualityRule/equality`` (the default), ``TrackedEqualityRule/identity`` or
/// ``TrackedEqualityRule/always``. See ``TrackedEqualityRule``.
@attached(peer)
public macro TrackedEquality(_ rule: TrackedEqualityRule) =
  #externalMacro(module: "TrackingMacros", type: "TrackedEqualityMacro")

/// Makes a set of this property notify only when `isEqual` says the new value differs
/// from the current one: a function (`Path.isSameShape`) or a closure with its
/// parameter types written out.
@attached(peer)
public macro TrackedEquality<Value>(using isEqual: (Value, Value) -> Bool) =
  #externalMacro(module: "TrackingMacros", type: "TrackedEqualityMacro")

/// Makes a set of this property notify only when the value at `key` differs
/// (`@TrackedEquality(by: \Row.revision)`).
@attached(peer)
public macro TrackedEquality<Value, Key: Equatable>(by key: KeyPath<Value, Key>) =
  #externalMacro(module: "TrackingMacros", type: "TrackedEqualityMacro")
