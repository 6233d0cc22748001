import SwiftSyntax

/// Small, side-effect-free queries on syntax nodes shared by the passes.
enum SyntaxQueries {
  /// The last component of an attribute's name: `SwiftUI.StateObject` → `StateObject`.
  static func name(of attribute: AttributeSyntax) -> String {
    simpleName(of: attribute.attributeName) ?? attribute.attributeName.trimmedDescription
  }

  /// Whether a type declaration around `site` (or an extension) declares a member type
  /// named `name`, which code at `site` would find before a type of another module.
  static func enclosingTypesDeclare(_ name: String, around site: some SyntaxProtocol) -> Bool {
    var node = site.parent
    while let current = node {
      let members: MemberBlockItemListSyntax? =
        current.as(StructDeclSyntax.self)?.memberBlock.members ?? current.as(ClassDeclSyntax.self)?.memberBlock.members
        ?? current.as(EnumDeclSyntax.self)?.memberBlock.members ?? current.as(ActorDeclSyntax.self)?.memberBlock.members
        ?? current.as(ExtensionDeclSyntax.self)?.memberBlock.members
      if let members, members.contains(where: { declaresType(named: name, $0.decl) }) { return true }
      node = current.parent
    }
    return false
  }

  private static func declaresType(named name: String, _ decl: DeclSyntax) -> Bool {
    let declared =
      decl.as(StructDeclSyntax.self)?.name ?? decl.as(ClassDeclSyntax.self)?.name ?? decl.as(EnumDeclSyntax.self)?.name
      ?? decl.as(ActorDeclSyntax.self)?.name ?? decl.as(TypeAliasDeclSyntax.self)?.name
    return declared?.text == name
  }

  /// The first attribute in `list` whose name is in `names`.
  static func attribute(in list: AttributeListSyntax, named names: Set<String>) -> AttributeSyntax? {
    for element in list {
      if case .attribute(let attribute) = element, names.contains(name(of: attribute)) {
        return attribute
      }
    }
    return nil
  }

  /// The nominal name a type refers to, ignoring generic arguments, module
  /// qualification and optionality: `Models.Book?` → `Book`.
  static func simpleName(of type: TypeSyntax) -> String? {
    if let identifier = type.as(IdentifierTypeSyntax.self) { return identifier.name.text }
    if let member = type.as(MemberTypeSyntax.self) { return member.name.text }
    if let optional = type.as(OptionalTypeSyntax.self) { return simpleName(of: optional.wrappedType) }
    if let iuo = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return simpleName(of: iuo.wrappedType) }
    if let attributed = type.as(AttributedTypeSyntax.self) { return simpleName(of: attributed.baseType) }
    if let some = type.as(SomeOrAnyTypeSyntax.self) { return simpleName(of: some.constraint) }
    return nil
  }

  /// The type constructed by an initializer expression such as `Library()`,
  /// `Library.init()` or `Models.Library(name: "x")`; `nil` for anything else.
  static func constructedTypeName(_ expression: ExprSyntax) -> String? {
    guard let call = expression.as(FunctionCallExprSyntax.self) else { return nil }
    let callee = call.calledExpression
    if let reference = callee.as(DeclReferenceExprSyntax.self) {
      return startsUppercase(reference.baseName.text) ? reference.baseName.text : nil
    }
    if let member = callee.as(MemberAccessExprSyntax.self) {
      let memberName = member.declName.baseName.text
      if memberName == "init", let base = member.base {
        return typeNameOfTypeExpression(base)
      }
      return startsUppercase(memberName) ? memberName : nil
    }
    if let specialized = callee.as(GenericSpecializationExprSyntax.self) {
      return typeNameOfTypeExpression(specialized.expression)
    }
    return nil
  }

  private static func typeNameOfTypeExpression(_ expression: ExprSyntax) -> String? {
    if let reference = expression.as(DeclReferenceExprSyntax.self) { return reference.baseName.text }
    if let member = expression.as(MemberAccessExprSyntax.self) { return member.declName.baseName.text }
    if let typeExpr = expression.as(TypeExprSyntax.self) { return simpleName(of: typeExpr.type) }
    return nil
  }

  /// The type of a single binding, from its annotation or `Type(...)` initializer.
  static func declaredTypeName(of binding: PatternBindingSyntax) -> String? {
    if let annotation = binding.typeAnnotation { return simpleName(of: annotation.type) }
    if let value = binding.initializer?.value { return constructedTypeName(value) }
    return nil
  }

  /// The identifier bound by a simple `var name` pattern.
  static func boundName(of binding: PatternBindingSyntax) -> String? {
    binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
  }

  /// Whether the declaration is `static` or `class` (a type member).
  static func isTypeMember(_ modifiers: DeclModifierListSyntax) -> Bool {
    modifiers.contains { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) }
  }

  /// Whether a binding stores a value: no accessor block, or only observers.
  static func isStored(_ binding: PatternBindingSyntax) -> Bool {
    guard let accessorBlock = binding.accessorBlock else { return true }
    switch accessorBlock.accessors {
    case .getter:
      return false
    case .accessors(let accessors):
      return accessors.allSatisfy {
        $0.accessorSpecifier.tokenKind == .keyword(.willSet)
          || $0.accessorSpecifier.tokenKind == .keyword(.didSet)
      }
    }
  }

  /// The name of the innermost type-like declaration (type or extension) that
  /// contains `node`, if any.
  static func enclosingTypeName(of node: some SyntaxProtocol) -> String? {
    var current = node.parent
    while let candidate = current {
      if let name = typeName(declaredBy: candidate) { return name }
      current = candidate.parent
    }
    return nil
  }

  /// The extension `node` is in, when the innermost type-like declaration around it is one.
  static func enclosingExtension(of node: some SyntaxProtocol) -> ExtensionDeclSyntax? {
    var current = node.parent
    while let candidate = current {
      if typeName(declaredBy: candidate) != nil { return candidate.as(ExtensionDeclSyntax.self) }
      current = candidate.parent
    }
    return nil
  }

  /// For a generic function, the type that declares it (where its generic
  /// parameters are recorded): `""` for a global function.
  static func enclosingFunctionOwner(of node: some SyntaxProtocol) -> String? {
    var current = node.parent
    while let candidate = current {
      if candidate.is(FunctionDeclSyntax.self) || candidate.is(InitializerDeclSyntax.self) {
        return enclosingTypeName(of: candidate) ?? ""
      }
      current = candidate.parent
    }
    return nil
  }

  /// The type name a declaration introduces or extends.
  static func typeName(declaredBy node: Syntax) -> String? {
    if let decl = node.as(ClassDeclSyntax.self) { return decl.name.text }
    if let decl = node.as(StructDeclSyntax.self) { return decl.name.text }
    if let decl = node.as(EnumDeclSyntax.self) { return decl.name.text }
    if let decl = node.as(ActorDeclSyntax.self) { return decl.name.text }
    if let decl = node.as(ExtensionDeclSyntax.self) { return simpleName(of: decl.extendedType) }
    return nil
  }

  /// Whether an inherited type is `ObservableObject` (optionally `Combine.`-qualified).
  static func isObservableObject(_ type: TypeSyntax) -> Bool {
    let text = type.trimmedDescription
    return text == "ObservableObject" || text == "Combine.ObservableObject"
  }

  /// Whether a simple type name is `ObservableObject`.
  static func isObservableObjectName(_ name: String) -> Bool { name == "ObservableObject" }

  /// The protocol names a constraint names: `P`, `P & Q`, `any P`.
  static func protocolNames(in type: TypeSyntax) -> [String] {
    if let composition = type.as(CompositionTypeSyntax.self) {
      return composition.elements.flatMap { protocolNames(in: $0.type) }
    }
    return simpleName(of: type).map { [$0] } ?? []
  }

  /// Member declarations of a block, including those inside `#if` clauses (all
  /// clauses: the tool cannot know which configuration is active).
  static func memberDecls(of block: MemberBlockSyntax) -> [DeclSyntax] {
    var result: [DeclSyntax] = []
    func collect(_ members: MemberBlockItemListSyntax) {
      for member in members {
        if let ifConfig = member.decl.as(IfConfigDeclSyntax.self) {
          for clause in ifConfig.clauses {
            if case .decls(let nested) = clause.elements { collect(nested) }
          }
        } else {
          result.append(member.decl)
        }
      }
    }
    collect(block.members)
    return result
  }

  /// The `var`/`let` members of a block, including those inside `#if` clauses.
  static func variableMembers(of block: MemberBlockSyntax) -> [VariableDeclSyntax] {
    memberDecls(of: block).compactMap { $0.as(VariableDeclSyntax.self) }
  }

  /// Whether a declaration is a member of a type (directly or inside `#if`), not a
  /// local or a global.
  static func isMember(_ node: some SyntaxProtocol) -> Bool {
    node.parent?.is(MemberBlockItemSyntax.self) ?? false
  }

  /// The called function's base name: `foo(...)`, `x.foo(...)` → `foo`.
  static func calleeName(of call: FunctionCallExprSyntax) -> String? {
    if let reference = call.calledExpression.as(DeclReferenceExprSyntax.self) {
      return reference.baseName.text
    }
    if let member = call.calledExpression.as(MemberAccessExprSyntax.self) {
      return member.declName.baseName.text
    }
    return nil
  }

  /// The type a call initializes when written as `Type(…)`, `Type.init(…)` or
  /// `Module.Type(…)`: `StateObject(wrappedValue: m)` → `StateObject`.
  static func wrapperTypeName(calledBy call: FunctionCallExprSyntax) -> String? {
    let callee = call.calledExpression
    if let reference = callee.as(DeclReferenceExprSyntax.self) {
      return startsUppercase(reference.baseName.text) ? reference.baseName.text : nil
    }
    guard let member = callee.as(MemberAccessExprSyntax.self),
      let base = member.base?.as(DeclReferenceExprSyntax.self), startsUppercase(base.baseName.text)
    else { return nil }
    if member.declName.baseName.text == "init" { return base.baseName.text }
    return startsUppercase(member.declName.baseName.text) ? member.declName.baseName.text : nil
  }

  /// The expression assigned to by `target = value`, when `value` is the right-hand
  /// side of a plain assignment (in an unfolded sequence or a folded infix expression).
  static func assignmentTarget(of value: some ExprSyntaxProtocol) -> ExprSyntax? {
    if let infix = value.parent?.as(InfixOperatorExprSyntax.self), infix.rightOperand.id == value.id,
      infix.operator.is(AssignmentExprSyntax.self)
    {
      return infix.leftOperand
    }
    guard let list = value.parent?.as(ExprListSyntax.self), list.parent?.is(SequenceExprSyntax.self) == true else {
      return nil
    }
    let elements = Array(list)
    guard elements.count == 3, elements[1].is(AssignmentExprSyntax.self), elements[2].id == value.id else {
      return nil
    }
    return elements[0]
  }

  /// The property name an assignment target refers to: `x` or `self.x` → `x`.
  static func assignedPropertyName(_ target: ExprSyntax) -> String? {
    if let reference = target.as(DeclReferenceExprSyntax.self) { return reference.baseName.text }
    if let member = target.as(MemberAccessExprSyntax.self),
      member.base?.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self)
    {
      return member.declName.baseName.text
    }
    return nil
  }

  /// Attributes that are not property wrappers (so a property carrying only these is plain).
  static let nonWrapperAttributes: Set<String> = [
    "MainActor", "objc", "objcMembers", "nonobjc", "available", "IBOutlet", "IBInspectable", "NSManaged",
    "NSCopying", "GKInspectable", "inlinable", "usableFromInline", "preconcurrency", "discardableResult",
  ]

  /// Attributes with which a stored property of a macro-observable class is ignored,
  /// or tracked in a way of its own.
  static let observationPropertyAttributes: Set<String> = [
    "TrackingIgnored", "ObservationIgnored", "Tracked", "TrackedExternally", "TrackedLazy", "ObservationTracked",
    "TrackedProperty",
  ]

  /// Attributes of a class declaration that are not macros the tool cannot see
  /// through: the language's own, the observation macros, and Apple's global actor.
  static let knownClassAttributes: Set<String> = [
    "MainActor", "objc", "objcMembers", "nonobjc", "available", "preconcurrency", "usableFromInline", "inlinable",
    "frozen", "dynamicMemberLookup", "dynamicCallable", "propertyWrapper", "resultBuilder", "globalActor",
    "IBDesignable", "main", "UIApplicationMain", "NSApplicationMain", "requires_stored_property_inits",
    "warn_unqualified_access", "unchecked", "retroactive", "Sendable", "_spi", "_implementationOnly", "_fixed_layout",
    "Observable", "Trackable",
  ]

  /// `lazy`: the one modifier neither macro can track a stored property with. (Both
  /// track `weak` and `unowned` properties; Apple's since Swift 6.2.)
  static func untrackableModifier(_ modifiers: DeclModifierListSyntax) -> String? {
    modifiers.contains { $0.name.tokenKind == .keyword(.lazy) } ? "lazy" : nil
  }

  /// `private`, `fileprivate`, `internal`, `package`, `public` or `open` (with `(set)` or not).
  static func isAccessModifier(_ modifier: DeclModifierSyntax) -> Bool {
    switch modifier.name.tokenKind {
    case .keyword(.private), .keyword(.fileprivate), .keyword(.internal), .keyword(.package), .keyword(.public),
      .keyword(.open):
      return true
    default:
      return false
    }
  }

  /// The comments in a piece of trivia, joined by spaces.
  static func comments(in trivia: Trivia) -> String {
    trivia.compactMap { piece -> String? in
      switch piece {
      case .lineComment(let text), .blockComment(let text), .docLineComment(let text), .docBlockComment(let text):
        return text
      default:
        return nil
      }
    }.joined(separator: " ")
  }

  static func startsUppercase(_ text: String) -> Bool {
    text.first.map { $0.isUppercase } ?? false
  }
}
