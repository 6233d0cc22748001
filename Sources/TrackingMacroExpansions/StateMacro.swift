import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@TrackedState` on a struct: a `_$stateRegistrar`, `@TrackedStateProperty(n)` on each
/// stored `var`, the members a `StateStore` compares and claims values with
/// (``StateChangeMembers``), a `TrackedStateValue` conformance (and `CodingKeys` for a
/// Codable struct without its own). On an enum: a `StateIdentifiable` conformance whose
/// identity is the case number plus the payloads' identities, with the same members.
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
          \(raw: declaration.accessPrefix)var _$identity: \(raw: Names.state.qualifiedIdentity) {
            \(raw: Names.state.registrarVariable).identity
          }
        }
        """
      return [decl.cast(ExtensionDeclSyntax.self).withAttributes(availability)]
    }
    guard let enumDecl = declaration.as(EnumDeclSyntax.self) else { return [] }
    let decl: DeclSyntax = """
      extension \(type.trimmed): \(raw: Names.state.identifiableConformance) {
        \(raw: enumDecl.accessPrefix)var _$identity: \(raw: Names.state.qualifiedIdentity) {
          \(raw: identitySwitch(enumDecl))
        }
      }
      """
    var extensionDecl = decl.cast(ExtensionDeclSyntax.self)
    for member in StateChangeMembers.forEnum(enumDecl) {
      extensionDecl.memberBlock.members.append(MemberBlockItemSyntax(leadingTrivia: .newlines(2), decl: member))
    }
    return [extensionDecl.withAttributes(availability)]
  }

  /// `switch self { case let .a(v0, v1): return .tagged(0, [.of(v0), .of(v1)]) … }`.
  static func identitySwitch(_ enumDecl: EnumDeclSyntax) -> String {
    let cases = enumDecl.memberBlock.members
      .compactMap { $0.decl.as(EnumCaseDeclSyntax.self) }
      .flatMap(\.elements)
    guard !cases.isEmpty else { return "\(Names.state.qualifiedIdentity).tagged(0, [])" }
    var lines = ["switch self {"]
    for (tag, element) in cases.enumerated() {
      let count = element.parameterClause?.parameters.count ?? 0
      let name = element.name.text
      if count == 0 {
        lines.append("case .\(name):")
        lines.append("  return \(Names.state.qualifiedIdentity).tagged(\(tag), [])")
      } else {
        let values = (0..<count).map { "v\($0)" }
        let identities = values.map { "\(Names.state.qualifiedIdentity).of(\($0))" }
        lines.append("case let .\(name)(\(values.joined(separator: ", "))):")
        lines.append("  return \(Names.state.qualifiedIdentity).tagged(\(tag), [\(identities.joined(separator: ", "))])")
      }
    }
    lines.append("}")
    return lines.joined(separator: "\n")
  }
}
