import SwiftSyntax

/// Small, side-effect-free queries on syntax nodes shared by the passes.
enum SyntaxQueries {
  /// The last component of an attribute's name: `SwiftUI.StateObject` → `StateObject`.
  static func name(of attribute: AttributeSyntax) -> String {
    simpleName(of: attribute.attributeName) ?? attribute.attributeName.trimmedDescription
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

  static func startsUppercase(_ text: String) -> Bool {
    text.first.map { $0.isUppercase } ?? false
  }
}
