import SwiftDiagnostics
import SwiftSyntax

/// Stable identifiers of the macros' diagnostics, for tests and tools.
enum TrackingDiagnostic: String {
  case notAClass
  case lazyProperty
  case referenceOwnership
  case multipleBindings
  case patternBinding
  case externalNeedsVar
  case externalHasInitializer
  case externalHasAccessors

  var diagnosticID: MessageID { MessageID(domain: "Tracking", id: rawValue) }
}

/// A diagnostic with its text filled in for the declaration at hand.
struct TrackingMessage: DiagnosticMessage {
  let id: TrackingDiagnostic
  let message: String
  var diagnosticID: MessageID { id.diagnosticID }
  var severity: DiagnosticSeverity { .error }

  static func notAClass(kind: String, name: String) -> Self {
    Self(
      id: .notAClass,
      message: "'@Trackable' can only be applied to a class; '\(name)' is \(kind)"
        + (kind == "a struct" || kind == "an enum"
          ? " (value types are copied, so there is no single instance to track)" : "")
        + (kind == "an actor" ? " (an actor's isolation does not allow synchronous tracking from outside)" : ""))
  }

  static func cannotTrack(_ id: TrackingDiagnostic, property: String, reason: String) -> Self {
    Self(id: id, message: "property '\(property)' cannot be tracked: \(reason); mark it '@TrackingIgnored' to keep it untracked")
  }

  static func external(_ id: TrackingDiagnostic, _ text: String) -> Self {
    Self(id: id, message: "'@TrackedExternally' \(text)")
  }
}

/// The fix-it that adds `@TrackingIgnored` in front of a property.
struct AddIgnoredFixIt: FixItMessage {
  var message: String { "add '@TrackingIgnored'" }
  var fixItID: MessageID { MessageID(domain: "Tracking", id: "addIgnored") }
}
