import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@TrackedState` on a struct: a `_$stateRegistrar`, `@TrackedStateProperty(n)` on each
/// stored `var`, the members a `StateStore` compares and claims values with
/// (``StateChangeMembers``), a `TrackedStateValue` conformance (and `CodingKeys` for a
/// Codable struct without its own). On an enum: a `StateIdentifiable` conformance with
/// the same members, which compare the case and then the payloads.
///
/// The registrar is a `private(set) var` (a store gives a copy that came from another
/// store a new one), so the memberwise initializer gains a last, defaulted
/// `_$stateRegistrar:` parameter.
open class TrackedStateMacro {}

extension TrackedStateMacro: MemberMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingMembersOf declaration: some DeclGroupSyntax,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    if declaration.is(EnumDeclSyntax.self) { return [] }
    guard declaration.is(StructDeclSyntax.self) else {
      context.diagnose(
        Diagnostic(
          node: node,
          message: TrackingMessage.notAStructOrEnum(
            DeclarationKind(declaration), name: DeclarationKind.name(of: declaration))))
      return []
    }
    let access = declaration.accessPrefix
    var members: [DeclSyntax] = [
      "\(raw: access)private(set) var \(raw: Names.state.registrarVariable) = \(raw: Names.state.qualifiedRegistrar)()"
    ]
    members += StateChangeMembers.forStruct(declaration)
    if let codingKeys = declaration.generatedCodingKeys {
      members.append(codingKeys)
    }
    return members
  }
}

extension TrackedStateMacro: MemberAttributeMacro {
  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingAttributesFor member: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [AttributeSyntax] {
    guard declaration.is(StructDeclSyntax.self) else { return [] }
    let attribute = declaration.trackingAttribute(
      for: member, propertyMacro: Names.state.propertyMacro, numbered: true
    ) { variable, reason in
      let name = variable.bindings.first?.pattern.trimmedDescription ?? "?"
      context.diagnose(
        Diagnostic(
          node: variable,
          message: TrackingMessage.cannotTrack(reason.id, property: name, reason: reason.text(inClass: false))))
    }
    return attribute.map { [$0] } ?? []
  }
}

extension TrackedStateMacro: ExtensionMacro {
  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingExtensionsOf type: some TypeSyntaxProtocol,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [ExtensionDeclSyntax] {
    let availability = Array(declaration.attributes.availability)
    if declaration.is(StructDeclSyntax.self) {
      let decl: DeclSyntax = """
        extension \(type.trimmed): \(raw: Names.state.identifiableConformance), \(raw: Names.state.valueConformance) {
        }
        """
      return [decl.cast(ExtensionDeclSyntax.self).withAttributes(availability)]
    }
    guard let enumDecl = declaration.as(EnumDeclSyntax.self) else { return [] }
    let decl: DeclSyntax = """
      extension \(type.trimmed): \(raw: Names.state.identifiableConformance) {
      }
      """
    var extensionDecl = decl.cast(ExtensionDeclSyntax.self)
    for (index, member) in StateChangeMembers.forEnum(enumDecl).enumerated() {
      extensionDecl.memberBlock.members.append(
        MemberBlockItemSyntax(leadingTrivia: index == 0 ? .newline : .newlines(2), decl: member))
    }
    return [extensionDecl.withAttributes(availability)]
  }
}
