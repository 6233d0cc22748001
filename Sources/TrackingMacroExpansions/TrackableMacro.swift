import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@Trackable`: makes a class's stored `var`s tracked.
///
/// - member: the registrar; `access(keyPath:)` / `withMutation(keyPath:_:)` unless the
///   class declares its own (used by `@TrackedExternally` and hand-written tracked
///   properties); `_$trackedPropertyNames`, the names of the numbered properties; and —
///   for a Codable class without its own `CodingKeys` — coding keys that use the
///   properties' own names rather than their `_` backing storage.
/// - member attribute: `@TrackedProperty(n)` on each stored `var`, numbering them; or,
///   in a class that declares its own `access`/`withMutation`, `@TrackedProperty`
///   without a number, whose accessors call those methods.
/// - extension: the `Trackable` conformance and, with the availability of Apple's
///   module, Apple's `Observable` (each omitted when the class already conforms, as a
///   subclass of a tracked class does). The class's own `@available` attributes are
///   copied onto both.
open class TrackableMacro {}

extension TrackableMacro: MemberMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingMembersOf declaration: some DeclGroupSyntax,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    guard let classDecl = declaration.as(ClassDeclSyntax.self) else {
      context.diagnose(
        Diagnostic(
          node: node,
          message: TrackingMessage.notAClass(DeclarationKind(declaration), name: DeclarationKind.name(of: declaration))))
      return []
    }
    let typeName = classDecl.name.trimmed
    var members: [DeclSyntax] = [
      "@\(raw: Names.ignoredMacro) private let \(raw: Names.registrarVariable) = \(raw: Names.qualifiedRegistrar)()"
    ]
    let accessPresence = classDecl.accessMethodPresence
    if accessPresence != .always {
      let member = context.makeUniqueName("Member")
      let method: DeclSyntax = """
        /// Records a read of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func access<\(member)>(keyPath: KeyPath<\(typeName), \(member)>) {
          \(raw: Names.registrarVariable).access(self, keyPath: keyPath)
        }
        """
      members.append(method.unless(accessPresence))
    }
    let withMutationPresence = classDecl.withMutationMethodPresence
    if withMutationPresence != .always {
      let member = context.makeUniqueName("Member")
      let result = context.makeUniqueName("MutationResult")
      let method: DeclSyntax = """
        /// Reports a mutation of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func withMutation<\(member), \(result)>(
          keyPath: KeyPath<\(typeName), \(member)>,
          _ mutation: () throws -> \(result)
        ) rethrows -> \(result) {
          try \(raw: Names.registrarVariable).withMutation(of: self, keyPath: keyPath, mutation)
        }
        """
      members.append(method.unless(withMutationPresence))
    }
    // The compiler asks for `Trackable` unless the class conforms already: through a
    // tracked superclass, or (rarely) because it says so itself.
    let inherited = !lacks(protocols, Names.conformance) && !classDecl.inherits(Names.conformance)
    members.append(propertyNames(of: classDecl, inheritsConformance: inherited))
    if let codingKeys = declaration.generatedCodingKeys {
      members.append(codingKeys)
    }
    return members
  }

  /// `_$trackedPropertyNames`: the names of the class's numbered properties, a
  /// property's number being its index (empty when the class's own
  /// `access`/`withMutation` number them at run time). `nonisolated`, so that a
  /// main-actor class satisfies the requirement; `class var` in a non-final class so
  /// that a tracked subclass can override it (`inheritsConformance`: the class already
  /// conforms, through a tracked superclass).
  static func propertyNames(of classDecl: ClassDeclSyntax, inheritsConformance: Bool) -> DeclSyntax {
    let names = classDecl.declaresAccessOrWithMutation ? [] : classDecl.numberedPropertyNames
    let list = "[" + names.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
    let isFinal = classDecl.modifiers.contains { $0.name.tokenKind == .keyword(.final) }
    let access = isFinal ? classDecl.accessPrefix : classDecl.overridableAccessPrefix
    let kind = isFinal ? "static" : "class"
    let override = inheritsConformance ? "override " : ""
    return """
      /// The names of this class's numbered tracked properties; a property's number is its index.
      \(raw: access)\(raw: override)nonisolated \(raw: kind) var \(raw: Names.propertyNamesVariable): [String] {
        \(raw: list)
      }
      """
  }

  /// Whether `protocols`, the conformances the compiler says the type still lacks,
  /// include `name` (a type that already conforms is not asked for it again).
  static func lacks(_ protocols: [TypeSyntax], _ name: String) -> Bool {
    protocols.contains { $0.trimmedDescription == name || $0.trimmedDescription.hasSuffix(".\(name)") }
  }

}

extension TrackableMacro: MemberAttributeMacro {
  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingAttributesFor member: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [AttributeSyntax] {
    guard let classDecl = declaration.as(ClassDeclSyntax.self) else { return [] }
    let attribute = classDecl.trackingAttribute(
      for: member, propertyMacro: Names.trackedMacro, numbered: !classDecl.declaresAccessOrWithMutation
    ) { variable, reason in
      context.diagnose(untrackableDiagnostic(variable, reason, in: classDecl))
    }
    return attribute.map { [$0] } ?? []
  }

}

extension TrackableMacro: ExtensionMacro {
  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingExtensionsOf type: some TypeSyntaxProtocol,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [ExtensionDeclSyntax] {
    // A subclass of a tracked class already conforms to both; the compiler then asks
    // for neither.
    guard declaration.is(ClassDeclSyntax.self) else { return [] }
    let availability = Array(declaration.attributes.availability)
    var extensions: [ExtensionDeclSyntax] = []
    if lacks(protocols, Names.conformance) {
      let decl: DeclSyntax = "extension \(type.trimmed): \(raw: nonisolated)\(raw: Names.qualifiedConformance) {}"
      extensions.append(decl.cast(ExtensionDeclSyntax.self).withAttributes(availability))
    }
    if lacks(protocols, "AppleObservable") || lacks(protocols, "Observable") {
      let decl: DeclSyntax = "extension \(type.trimmed): \(raw: nonisolated)\(raw: Names.qualifiedAppleObservable) {}"
      let apple: AttributeSyntax = "\(raw: Names.appleObservationAvailability)"
      extensions.append(decl.cast(ExtensionDeclSyntax.self).withAttributes(availability + [.attribute(apple)]))
    }
    return extensions
  }

  /// `nonisolated ` where the compiler understands nonisolated conformances (Swift
  /// 6.2, SE-0470) and swift-syntax parses them: a main-actor class's conformances
  /// then stay usable from any isolation (the registrar's generic entry points run
  /// there), even where isolated conformances are inferred. Apple's macro does the same.
  static var nonisolated: String {
    #if compiler(>=6.2) && canImport(SwiftSyntax602)
      "nonisolated "
    #else
      ""
    #endif
  }
}
