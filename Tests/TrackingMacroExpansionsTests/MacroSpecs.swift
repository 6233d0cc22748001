import SwiftSyntaxMacroExpansion
import TrackingMacroExpansions

/// The macros under test, as the compiler runs them on a class that conforms to
/// neither protocol yet: `@Trackable` is asked for `Trackable` and Apple's `Observable`.
let trackingMacros: [String: MacroSpec] = [
  "Trackable": MacroSpec(type: TrackableMacro.self, conformances: ["Trackable", "TrackingInterop.AppleObservable"]),
  "TrackedProperty": MacroSpec(type: TrackedPropertyMacro.self),
  "TrackingIgnored": MacroSpec(type: TrackingIgnoredMacro.self),
  "TrackedExternally": MacroSpec(type: TrackedExternallyMacro.self),
]

/// `@Trackable` alone, as on a class that conforms to neither protocol yet: the
/// attributes it adds to members stay unexpanded, so tests of what the class macro
/// decides (numbering, which members it generates) read short.
let classMacroOnly: [String: MacroSpec] = [
  "Trackable": MacroSpec(type: TrackableMacro.self, conformances: ["Trackable", "TrackingInterop.AppleObservable"])
]

/// `@TrackedProperty` alone, applied by hand in tests: the accessors and storage it
/// generates for one property, without the class macro's members around them.
let propertyMacroOnly: [String: MacroSpec] = [
  "TrackedProperty": MacroSpec(type: TrackedPropertyMacro.self)
]

/// `@Trackable` as the compiler runs it on a subclass of a tracked class: the class
/// conforms to both protocols already, so it is asked for neither.
let subclassMacroOnly: [String: MacroSpec] = [
  "Trackable": MacroSpec(type: TrackableMacro.self, conformances: [])
]

/// `@Trackable` on a class that declares Apple's `Observable` itself: asked for
/// `Trackable` only.
let alreadyObservableMacroOnly: [String: MacroSpec] = [
  "Trackable": MacroSpec(type: TrackableMacro.self, conformances: ["Trackable"])
]

/// The state macros under test, with the conformances the compiler would request.
let stateMacros: [String: MacroSpec] = [
  "TrackedState": MacroSpec(
    type: TrackedStateMacro.self, conformances: ["StateIdentifiable", "TrackedStateValue"]),
  "TrackedStateProperty": MacroSpec(type: TrackedStatePropertyMacro.self),
]
