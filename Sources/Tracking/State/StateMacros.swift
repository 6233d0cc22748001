/// Makes a struct's stored properties tracked per value, or gives an enum the
/// identity that state fields holding it are observed by.
///
/// ```swift
/// @TrackedState
/// struct Feature {
///   var count = 0
///   var child = Child()
///   var items: [Item] = []
///   var destination: Destination? = nil
/// }
///
/// @TrackedState
/// enum Destination { case detail(Detail), settings(Settings) }
/// ```
///
/// Keep the root value in a ``StateStore``; reading a field inside `withTracking`
/// then records exactly that field (and each state value read on the way to it).
/// Each ``StateStore/mutate(_:)`` compares the state before and after, and:
/// - a field that changed notifies only its own readers;
/// - a nested state value (or an optional's, an array's elements, an enum's case or
///   payload) replaced with one of a different identity (see ``StateIdentifiable``)
///   notifies everyone who read through it; one with the same identity (the same value,
///   mutated) notifies only the readers of the fields that changed inside it.
///
/// **A copy is a copy.** Setting a field only stores it; only the store notifies, and
/// only for the value it holds. Mutating a copy (taken out of the store, passed to a
/// function, captured in a closure, kept in an array, on another thread) notifies no
/// one until it is written back into the store, which then notifies the readers of the
/// fields in which it differs.
///
/// On a struct, the macro turns each stored `var` into a computed property over
/// private storage (the memberwise initializer keeps working, with a last defaulted
/// parameter for the registrar), adds a ``StateRegistrar``, the members a store
/// compares values with, and a ``TrackedStateValue`` conformance. `let` properties and
/// `@TrackingIgnored` ones are left alone (and never compared). A `Codable` struct
/// without its own `CodingKeys` codes under the properties' own names. On an enum, the
/// macro adds a ``StateIdentifiable`` conformance: case plus payload identities.
///
/// Reads that bypass the accessors are not tracked: `==`, hashing, coding and
/// reflection (`print`) read the storage directly.
@attached(
  member, names: named(_$stateRegistrar), named(CodingKeys), named(_$reportChanges), named(_$claim),
  named(_$reidentify))
@attached(memberAttribute)
@attached(
  extension, conformances: TrackedStateValue, StateIdentifiable,
  names: named(_$reportChanges), named(_$claim), named(_$reidentify))
public macro TrackedState() = #externalMacro(module: "TrackingMacros", type: "TrackedStateMacro")

/// Added by ``TrackedState()`` to each stored property of a struct, with the
/// property's number in the value's registrar. Not meant to be written by hand.
@attached(accessor, names: named(init), named(get), named(set), named(_modify))
@attached(peer, names: prefixed(_))
public macro TrackedStateProperty(_ id: Int) =
  #externalMacro(module: "TrackingMacros", type: "TrackedStatePropertyMacro")
