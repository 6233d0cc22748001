import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@TrackedState` on a struct: a `_$stateRegistrar`, `@TrackedStateProperty(n)` on each
/// stored `var`, a `TrackedStateValue` conformance (and `CodingKeys` for a Codable struct
/// without its own). On an enum: a `StateIdentifiable` conformance whose identity is
/// the case number plus the payloads' identities.
public struct TrackedStateMacro {}

extension TrackedStateMacro: MemberMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingMembersOf declaration: some DeclGroupSyntax,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    if declaration.is(EnumDeclSyntax.self) { return [] }
    guard declaration.is(StructDeclSyntax.self) else {
      context.diagnose(Diagnostic(node: node, message: StateMessage.notAStructOrEnum(declaration)))
      return []
    }
    let access = accessPrefix(declaration)
    var members: [DeclSyntax] = [
      "\(raw: access)let \(raw: Names.state.registrarVariable) = \(raw: Names.state.qualifiedRegistrar)()"
    ]
    if let codingKeys = TrackableMacro.codingKeys(for: declaration) {
      members.append(codingKeys)
    }
    return members
  }

  /// `public ` or `package ` when the type is that visible, so that protocol
  /// requirements are satisfied; otherwise nothing.
  static func accessPrefix(_ declaration: some DeclGroupSyntax) -> String {
    for modifier in declaration.modifiers {
      switch modifier.name.tokenKind {
      case .keyword(.public), .keyword(.open): return "public "
      case .keyword(.package): return "package "
      default: continue
      }
    }
    return ""
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
    let attribute = declaration.numberingAttribute(for: member, propertyMacro: Names.state.propertyMacro) {
      variable, message in
      context.diagnose(Diagnostic(node: variable, message: message))
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
    if declaration.is(StructDeclSyntax.self) {
      let decl: DeclSyntax = """
        extension \(type.trimmed): \(raw: Names.state.identifiableConformance), \(raw: Names.state.valueConformance) {
          \(raw: accessPrefix(declaration))var _$identity: \(raw: Names.state.qualifiedIdentity) {
            \(raw: Names.state.registrarVariable).identity
          }
        }
        """
      return [decl.cast(ExtensionDeclSyntax.self)]
    }
    guard let enumDecl = declaration.as(EnumDeclSyntax.self) else { return [] }
    let decl: DeclSyntax = """
      extension \(type.trimmed): \(raw: Names.state.identifiableConformance) {
        \(raw: accessPrefix(enumDecl))var _$identity: \(raw: Names.state.qualifiedIdentity) {
          \(raw: identitySwitch(enumDecl))
        }
      }
      """
    return [decl.cast(ExtensionDeclSyntax.self)]
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
