import SwiftCompilerPlugin
import SwiftSyntaxMacros

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
