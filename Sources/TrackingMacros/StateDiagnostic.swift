import SwiftDiagnostics
import SwiftSyntax

/// The `@TrackedState` macro's own diagnostics.
struct StateMessage: DiagnosticMessage {
  let message: String
  var diagnosticID: MessageID { MessageID(domain: "TrackingState", id: "notAStructOrEnum") }
  var severity: DiagnosticSeverity { .error }

  static func notAStructOrEnum(_ declaration: some DeclGroupSyntax) -> Self {
    let what: String =
      if let d = declaration.as(ClassDeclSyntax.self) { "class '\(d.name.text)'; use '@Trackable' for classes" }
      else if let d = declaration.as(ActorDeclSyntax.self) { "actor '\(d.name.text)'" }
      else if let d = declaration.as(ProtocolDeclSyntax.self) { "protocol '\(d.name.text)'" }
      else { "this declaration" }
    return Self(message: "'@TrackedState' can only be applied to a struct or an enum, not to \(what)")
  }
}
