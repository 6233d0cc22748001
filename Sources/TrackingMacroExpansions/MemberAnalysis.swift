import SwiftSyntax
import SwiftSyntaxBuilder

/// What the macros need to know about a class's or struct's members, read off its
/// syntax. Members inside `#if` blocks count: the macro cannot know which clause the
/// compiler will keep, so it looks at all of them.
extension DeclGroupSyntax {
  /// The member declarations, including those inside every clause of `#if` blocks
  /// (nested ones too), in source order.
  var allMemberDecls: [DeclSyntax] {
    memberBlock.members.flatMap { $0.decl.flattenedDecls }
  }

  /// The variable declarations among ``allMemberDecls``.
  var variableMembers: [VariableDeclSyntax] {
    allMemberDecls.compactMap { $0.as(VariableDeclSyntax.self) }
  }

  /// The tracked stored properties' names in declaration order, each once; a
  /// property's number in the registrar is its index here. A name declared in two
  /// clauses of one `#if` gets one number: only one clause is compiled. (Hand-written
  /// and `@TrackedExternally` properties go through the key-path entry points and are
  /// numbered at run time.)
  var numberedPropertyNames: [String] {
    var seen = Set<String>()
    return variableMembers.compactMap { variable in
      guard variable.isTracked, let name = variable.singleIdentifier?.text, seen.insert(name).inserted
      else { return nil }
      return name
    }
  }

  /// Whether the type declares its own `access(keyPath:)` or `withMutation(keyPath:_:)`
  /// instance method in its body (in any `#if` clause). Such a class gets no generated
  /// copy of the one it declares (or only where its `#if` leaves it out), and its
  /// tracked properties go through these methods on every read and write
  /// (``TrackedPropertyMacro``'s key-path form).
  var declaresAccessOrWithMutation: Bool {
    accessMethodPresence != .never || withMutationMethodPresence != .never
  }

  var accessMethodPresence: Presence {
    presence(ofMethod: "access", labels: ["keyPath"], in: memberBlock.members, path: [])
  }

  var withMutationMethodPresence: Presence {
    presence(ofMethod: "withMutation", labels: ["keyPath", "_"], in: memberBlock.members, path: [])
  }

  /// Where an instance method `name` with exactly these argument labels is declared:
  /// nowhere, unconditionally, or under the `#if` conditions of its clauses.
  func presence(
    ofMethod name: String, labels: [String], in members: MemberBlockItemListSyntax, path: [String]
  ) -> Presence {
    var result = Presence.never
    for member in members {
      if let function = member.decl.as(FunctionDeclSyntax.self) {
        let isInstance = !function.modifiers.contains {
          $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class)
        }
        if function.name.text == name, isInstance,
          function.signature.parameterClause.parameters.map(\.firstName.text) == labels
        {
          result = result.or(path.isEmpty ? .always : .when([path]))
        }
      } else if let ifConfig = member.decl.as(IfConfigDeclSyntax.self) {
        // Clause k is compiled when its condition holds and no earlier one did.
        var earlier: [String] = []
        for clause in ifConfig.clauses {
          let condition = clause.condition.map { Presence.term($0.trimmedDescription) }
          let clausePath = path + earlier.map { "!" + $0 } + (condition.map { [$0] } ?? [])
          if case .decls(let nested) = clause.elements {
            result = result.or(presence(ofMethod: name, labels: labels, in: nested, path: clausePath))
          }
          if let condition { earlier.append(condition) }
        }
      }
    }
    return result
  }

  /// The member-attribute step shared by `@Trackable` and `@TrackedState`: the
  /// attribute that makes `member` tracked — `@<propertyMacro>(n)` with its number,
  /// or `@<propertyMacro>` without one when `numbered` is false (the class's own
  /// `access`/`withMutation` are then called) — or `nil` when the member is not a
  /// tracked stored property or already carries the attribute. A member that cannot
  /// be tracked gets `nil` too, after `reportUntrackable` was called with it and why.
  func trackingAttribute(
    for member: some DeclSyntaxProtocol, propertyMacro: String, numbered: Bool,
    reportUntrackable: (VariableDeclSyntax, UntrackableReason) -> Void
  ) -> AttributeSyntax? {
    guard let variable = member.as(VariableDeclSyntax.self),
      variable.isTrackingCandidate,
      !variable.hasAttribute(propertyMacro)
    else { return nil }
    if let reason = variable.untrackableReason {
      reportUntrackable(variable, reason)
      return nil
    }
    guard numbered else { return "@\(raw: propertyMacro)" }
    guard let name = variable.singleIdentifier?.text,
      let index = numberedPropertyNames.firstIndex(of: name)
    else { return nil }
    return "@\(raw: propertyMacro)(\(raw: index))"
  }

  /// Whether the type lists `name` among its inherited types.
  func inherits(_ name: String) -> Bool {
    inheritanceClause?.inheritedTypes.contains { inherited in
      let text = inherited.type.trimmedDescription
      return text == name || text.hasSuffix(".\(name)")
    } ?? false
  }

  /// Whether the group declares a member type or alias named `name`.
  func declaresType(named name: String) -> Bool {
    allMemberDecls.contains { decl in
      if let e = decl.as(EnumDeclSyntax.self) { return e.name.text == name }
      if let s = decl.as(StructDeclSyntax.self) { return s.name.text == name }
      if let t = decl.as(TypeAliasDeclSyntax.self) { return t.name.text == name }
      return false
    }
  }

  /// `public `, `package ` or nothing: the access a generated member needs to satisfy
  /// a public protocol requirement for a type this visible. (`open` types get
  /// `public `; see ``overridableAccessPrefix``.)
  var accessPrefix: String {
    for modifier in modifiers {
      switch modifier.name.tokenKind {
      case .keyword(.public), .keyword(.open): return "public "
      case .keyword(.package): return "package "
      default: continue
      }
    }
    return ""
  }

  /// Like ``accessPrefix``, but `open ` for an `open` class, so that subclasses in
  /// other modules can override the member.
  var overridableAccessPrefix: String {
    modifiers.contains { $0.name.tokenKind == .keyword(.open) } ? "open " : accessPrefix
  }
}

extension DeclSyntax {
  /// This declaration, or for an `#if` block the declarations of all its clauses.
  var flattenedDecls: [DeclSyntax] {
    guard let ifConfig = self.as(IfConfigDeclSyntax.self) else { return [self] }
    return ifConfig.clauses.flatMap { clause -> [DeclSyntax] in
      guard case .decls(let members) = clause.elements else { return [] }
      return members.flatMap { $0.decl.flattenedDecls }
    }
  }
}
