import SwiftCompilerPlugin
import SwiftSyntaxMacros
import TrackingMacroExpansions

// The compiler plugin: only the entry point and the names the compiler asks for. What
// each macro expands to is in TrackingMacroExpansions, a plain library, so that the
// expansion tests link that library and no test target depends on this macro target.
// (SwiftPM builds a test product that depends on a macro target for the host; `swift
// test` then compiles every module twice, once for the host and once for the products.)
//
// The compiler names a macro by this module and a type (`#externalMacro(module:
// "TrackingMacros", type: "TrackableMacro")`), and the plugin finds the type whose
// qualified name is exactly that. So each type is declared here, as a subclass that
// inherits its expansion from the library's class of the same name.

/// `@Trackable` (see ``TrackingMacroExpansions/TrackableMacro``).
final class TrackableMacro: TrackingMacroExpansions.TrackableMacro {}
/// `@TrackedProperty` (see ``TrackingMacroExpansions/TrackedPropertyMacro``).
final class TrackedPropertyMacro: TrackingMacroExpansions.TrackedPropertyMacro {}
/// `@TrackingIgnored` (see ``TrackingMacroExpansions/TrackingIgnoredMacro``).
final class TrackingIgnoredMacro: TrackingMacroExpansions.TrackingIgnoredMacro {}
/// `@TrackedExternally` (see ``TrackingMacroExpansions/TrackedExternallyMacro``).
final class TrackedExternallyMacro: TrackingMacroExpansions.TrackedExternallyMacro {}
/// `@TrackedState` (see ``TrackingMacroExpansions/TrackedStateMacro``).
final class TrackedStateMacro: TrackingMacroExpansions.TrackedStateMacro {}
/// `@TrackedStateProperty` (see ``TrackingMacroExpansions/TrackedStatePropertyMacro``).
final class TrackedStatePropertyMacro: TrackingMacroExpansions.TrackedStatePropertyMacro {}
/// `@TrackedEquality` (see ``TrackingMacroExpansions/TrackedEqualityMacro``).
final class TrackedEqualityMacro: TrackingMacroExpansions.TrackedEqualityMacro {}

@main
struct TrackingMacrosPlugin: CompilerPlugin {
  let providingMacros: [any Macro.Type] = [
    TrackableMacro.self,
    TrackedPropertyMacro.self,
    TrackingIgnoredMacro.self,
    TrackedExternallyMacro.self,
    TrackedStateMacro.self,
    TrackedStatePropertyMacro.self,
    TrackedEqualityMacro.self,
  ]
}
