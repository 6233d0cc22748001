import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@Trackable`: makes a class's stored `var`s tracked.
///
/// - member: the registrar, `access(keyPath:)` / `withMutation(keyPath:_:)` for
///   hand-written tracked properties (numbered by the registrar on first use), and — for a
///   Codable class without its own `CodingKeys` — coding keys that use the
///   properties' own names rather than their `_` backing storage.
/// - member attribute: `@TrackedProperty(n)` on each stored `var`, numbering them.
/// - extension: the `Trackable` conformance (omitted for a subclass of a tracked
///   class, which inherits it).
public struct TrackableMacro {}

extension TrackableMacro: MemberMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingMembersOf declaration: some DeclGroupSyntax,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    guard let classDecl = declaration.as(ClassDeclSyntax.self) else {
      context.diagnose(notAClassDiagnostic(node: node, declaration: declaration))
      return []
    }
    let typeName = classDecl.name.trimmed
    var members: [DeclSyntax] = [
      """
      @\(raw: Names.ignoredMacro) private let \(raw: Names.registrarVariable) = \(raw: Names.qualifiedRegistrar)()
      """,
      """
      /// Records a read of the property at `keyPath`, for hand-written tracked properties.
      internal nonisolated func access<Member>(keyPath: KeyPath<\(typeName), Member>) {
        \(raw: Names.registrarVariable).access(self, keyPath: keyPath)
      }
      """,
      """
      /// Reports a mutation of the property at `keyPath`, for hand-written tracked properties.
      internal nonisolated func withMutation<Member, MutationResult>(
        keyPath: KeyPath<\(typeName), Member>,
        _ mutation: () throws -> MutationResult
      ) rethrows -> MutationResult {
        try \(raw: Names.registrarVariable).withMutation(of: self, keyPath: keyPath, mutation)
      }
      """,
    ]
    if let codingKeys = codingKeys(for: declaration) {
      members.append(codingKeys)
    }
    return members
  }

  /// Coding keys under the properties' own names, for classes that declare a Codable
  /// conformance and no `CodingKeys` of their own. Tracked properties are stored as
  /// `_name`; the key maps that storage back to `name`. The registrar is left out.
  static func codingKeys(for declaration: some DeclGroupSyntax) -> DeclSyntax? {
    let codable = ["Codable", "Encodable", "Decodable"].contains { declaration.inherits($0) }
    guard codable, !declaration.declaresType(named: "CodingKeys") else { return nil }
    let numbered = Set(declaration.numberedPropertyNames)
    let cases = declaration.variableMembers.compactMap { variable -> String? in
      guard variable.isStoredInstanceProperty, let name = variable.singleIdentifier?.text else { return nil }
      return numbered.contains(name) ? "case _\(name) = \"\(name)\"\n" : "case \(name)\n"
    }
    guard !cases.isEmpty else { return nil }
    return """
      private enum CodingKeys: String, CodingKey {
        \(raw: cases.joined())}
      """
  }

  static func notAClassDiagnostic(node: AttributeSyntax, declaration: some DeclGroupSyntax) -> Diagnostic {
    let (kind, name): (String, String) =
      if let d = declaration.as(StructDeclSyntax.self) { ("a struct", d.name.text) }
      else if let d = declaration.as(EnumDeclSyntax.self) { ("an enum", d.name.text) }
      else if let d = declaration.as(ActorDeclSyntax.self) { ("an actor", d.name.text) }
      else if let d = declaration.as(ProtocolDeclSyntax.self) { ("a protocol", d.name.text) }
      else if let d = declaration.as(ExtensionDeclSyntax.self) { ("an extension", d.extendedType.trimmedDescription) }
      else { ("not a class", "this declaration") }
    return Diagnostic(node: node, message: TrackingMessage.notAClass(kind: kind, name: name))
  }
}

extension TrackableMacro: MemberAttributeMacro {
  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingAttributesFor member: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [AttributeSyntax] {
    guard declaration.is(ClassDeclSyntax.self) else { return [] }
    let attribute = declaration.numberingAttribute(for: member, propertyMacro: Names.trackedMacro) {
      variable, message in
      context.diagnose(
        Diagnostic(
          node: variable,
          message: message,
          fixIt: FixIt(
            message: AddIgnoredFixIt(),
            changes: [.replace(oldNode: Syntax(variable), newNode: Syntax(ignoring(variable)))])))
    }
    return attribute.map { [$0] } ?? []
  }

  /// `variable` with `@TrackingIgnored` in front, for the fix-it.
  static func ignoring(_ variable: VariableDeclSyntax) -> VariableDeclSyntax {
    var copy = variable
    let attribute = AttributeSyntax(
      atSign: .atSignToken(leadingTrivia: variable.leadingTrivia),
      attributeName: IdentifierTypeSyntax(name: .identifier(Names.ignoredMacro)),
      trailingTrivia: .space)
    copy.leadingTrivia = []
    copy.attributes = [.attribute(attribute)] + copy.attributes
    return copy
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
    // A subclass of a tracked class already conforms; the compiler then asks for nothing.
    guard declaration.is(ClassDeclSyntax.self), !protocols.isEmpty else { return [] }
    let decl: DeclSyntax = "extension \(type.trimmed): \(raw: Names.qualifiedConformance) {}"
    return [decl.cast(ExtensionDeclSyntax.self)]
  }
}
