import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder

/// Every diagnostic and fix-it the macros emit, in one place: stable identifiers for
/// tests and tools, and the text of each message.

/// Stable identifiers of the macros' diagnostics.
enum TrackingDiagnostic: String {
  case notAClass
  case notAStructOrEnum
  case lazyProperty
  case multipleBindings
  case patternBinding
  case externalNeedsVar
  case externalHasInitializer
  case externalHasAccessors

  var diagnosticID: MessageID { MessageID(domain: "Tracking", id: rawValue) }
}

/// What a macro was attached to, when it is not what the macro accepts.
enum DeclarationKind {
  case `class`, `struct`, `enum`, actor, `protocol`, `extension`, other

  init(_ declaration: some SyntaxProtocol) {
    self =
      if declaration.is(ClassDeclSyntax.self) { .class }
      else if declaration.is(StructDeclSyntax.self) { .struct }
      else if declaration.is(EnumDeclSyntax.self) { .enum }
      else if declaration.is(ActorDeclSyntax.self) { .actor }
      else if declaration.is(ProtocolDeclSyntax.self) { .protocol }
      else if declaration.is(ExtensionDeclSyntax.self) { .extension }
      else { .other }
  }

  /// "a struct", "an enum", …
  var withArticle: String {
    switch self {
    case .class: "a class"
    case .struct: "a struct"
    case .enum: "an enum"
    case .actor: "an actor"
    case .protocol: "a protocol"
    case .extension: "an extension"
    case .other: "not a type"
    }
  }

  /// The declaration's name as diagnostics quote it.
  static func name(of declaration: some SyntaxProtocol) -> String {
    if let named = declaration.asProtocol(NamedDeclSyntax.self) { return named.name.text }
    if let ext = declaration.as(ExtensionDeclSyntax.self) { return ext.extendedType.trimmedDescription }
    return "this declaration"
  }
}

/// A diagnostic with its text filled in for the declaration at hand.
struct TrackingMessage: DiagnosticMessage {
  let id: TrackingDiagnostic
  let message: String
  var diagnosticID: MessageID { id.diagnosticID }
  var severity: DiagnosticSeverity { .error }

  /// `@Trackable` on something other than a class.
  static func notAClass(_ kind: DeclarationKind, name: String) -> Self {
    let why: String =
      switch kind {
      case .struct, .enum: " (value types are copied, so there is no single instance to track)"
      case .actor: " (an actor's isolation does not allow synchronous tracking from outside)"
      case .class, .protocol, .extension, .other: ""
      }
    return Self(id: .notAClass, message: "'@Trackable' can only be applied to a class; '\(name)' is \(kind.withArticle)\(why)")
  }

  /// `@TrackedState` on something other than a struct or an enum.
  static func notAStructOrEnum(_ kind: DeclarationKind, name: String) -> Self {
    let what: String =
      switch kind {
      case .class: "class '\(name)'; use '@Trackable' for classes"
      case .actor: "actor '\(name)'"
      case .protocol: "protocol '\(name)'"
      case .struct, .enum, .extension, .other: "this declaration"
      }
    return Self(id: .notAStructOrEnum, message: "'@TrackedState' can only be applied to a struct or an enum, not to \(what)")
  }

  static func cannotTrack(_ id: TrackingDiagnostic, property: String, reason: String) -> Self {
    Self(id: id, message: "property '\(property)' cannot be tracked: \(reason); mark it '@TrackingIgnored' to keep it untracked")
  }

  static func external(_ id: TrackingDiagnostic, _ text: String) -> Self {
    Self(id: id, message: "'@TrackedExternally' \(text)")
  }
}

/// Why a stored `var` cannot be made tracked, read off its syntax.
enum UntrackableReason {
  case multipleBindings
  case tuplePattern
  case lazy

  var id: TrackingDiagnostic {
    switch self {
    case .multipleBindings: .multipleBindings
    case .tuplePattern: .patternBinding
    case .lazy: .lazyProperty
    }
  }

  /// The explanation, for a class (`@Trackable`, which offers `@TrackedLazy`) or a
  /// struct (`@TrackedState`).
  func text(inClass: Bool) -> String {
    switch self {
    case .multipleBindings:
      "declare each tracked property in its own 'var'"
    case .tuplePattern:
      "tuple patterns cannot be tracked; declare each element in its own 'var'"
    case .lazy where inClass:
      "Swift does not allow 'lazy' on a computed property, and tracking makes it computed; "
        + "use '@TrackedLazy' for a lazily initialized tracked property"
    case .lazy:
      "Swift does not allow 'lazy' on a computed property, and tracking makes it computed"
    }
  }
}

/// The fix-it that adds `@TrackingIgnored` in front of a property.
struct AddIgnoredFixIt: FixItMessage {
  var message: String { "add '@TrackingIgnored'" }
  var fixItID: MessageID { MessageID(domain: "Tracking", id: "addIgnored") }
}

/// The fix-it that turns a `lazy var` into a `@TrackedLazy` one.
struct UseTrackedLazyFixIt: FixItMessage {
  let method: String
  var message: String { "use '@TrackedLazy' with a method '\(method)()' that computes the first value" }
  var fixItID: MessageID { MessageID(domain: "Tracking", id: "useTrackedLazy") }
}
