import SwiftSyntax

/// Finds the static type of simple expressions from declarations in the inputs.
///
/// It understands `Type(…)` and `Type.init(…)`; identifiers declared as a local
/// (with an annotation or initializer), a parameter, a property of the enclosing
/// type (or its superclasses) or a global; `self`; member chains such as
/// `Model.shared`, `self.store.session` or `manager.current?.client`, through
/// property types; and calls to functions with a declared return type, such as
/// `Provider.shared.controller(for: item)`. `try`, `await`, `!` and `?` are looked
/// through. Anything else yields `nil`, which callers treat conservatively.
enum ExpressionTypeResolver {
  /// How deep property initial values are followed (`var a = b.c`, `var b = …`).
  static let maximumDepth = 8

  static func typeName(of expression: ExprSyntax, index: ProjectIndex, depth: Int = 0) -> String? {
    guard depth < maximumDepth else { return nil }
    if let constructed = SyntaxQueries.constructedTypeName(expression) { return constructed }
    if let tryExpression = expression.as(TryExprSyntax.self) { return typeName(of: tryExpression.expression, index: index, depth: depth) }
    if let awaitExpression = expression.as(AwaitExprSyntax.self) { return typeName(of: awaitExpression.expression, index: index, depth: depth) }
    if let forced = expression.as(ForceUnwrapExprSyntax.self) { return typeName(of: forced.expression, index: index, depth: depth) }
    if let optional = expression.as(OptionalChainingExprSyntax.self) { return typeName(of: optional.expression, index: index, depth: depth) }
    if let tuple = expression.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first {
      return typeName(of: only.expression, index: index, depth: depth)
    }
    if let reference = expression.as(DeclReferenceExprSyntax.self) {
      return typeOfName(reference, index: index, depth: depth)
    }
    if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base {
      let name = member.declName.baseName.text
      // A value first (`App.manager` where `App` is a property), then a type (`Model.shared`).
      if let baseType = typeName(of: base, index: index, depth: depth) ?? typeOfTypeExpression(base) {
        return index.propertyType(name, of: baseType, depth: depth + 1)
      }
      return nil
    }
    if let call = expression.as(FunctionCallExprSyntax.self) {
      // `{ () -> Model in … }()`: an immediately called closure says what it returns.
      if let closure = call.calledExpression.as(ClosureExprSyntax.self) {
        return closure.signature?.returnClause.flatMap { SyntaxQueries.simpleName(of: $0.type) }
      }
      return returnType(of: call, index: index, depth: depth)
    }
    return nil
  }

  /// The type of `name` where it is used: a local (also `if let`/`guard let`), a
  /// parameter, `self`, a property of the enclosing type, or a global.
  private static func typeOfName(_ reference: DeclReferenceExprSyntax, index: ProjectIndex, depth: Int) -> String? {
    if reference.baseName.tokenKind == .keyword(.self) { return SyntaxQueries.enclosingTypeName(of: reference) }
    let name = reference.baseName.text
    var current = reference.parent
    while let node = current {
      if let items = node.as(CodeBlockItemListSyntax.self),
        let found = localType(named: name, in: items, before: reference.position, index: index, depth: depth)
      {
        return found
      }
      if let conditions = (node.as(IfExprSyntax.self)?.conditions ?? node.as(GuardStmtSyntax.self)?.conditions),
        let found = boundType(named: name, in: conditions, index: index, depth: depth)
      {
        return found
      }
      if let function = node.as(FunctionDeclSyntax.self),
        let found = parameterType(named: name, in: function.signature.parameterClause)
      {
        return found
      }
      if let initializer = node.as(InitializerDeclSyntax.self),
        let found = parameterType(named: name, in: initializer.signature.parameterClause)
      {
        return found
      }
      current = node.parent
    }
    if let owner = SyntaxQueries.enclosingTypeName(of: reference), let found = index.propertyType(name, of: owner, depth: depth + 1) {
      return found
    }
    return index.propertyTypesByType[""]?[name]
  }

  /// The return type of `f(…)`, `x.f(…)` or `Type.f(…)`; for a function that
  /// returns one of its arguments' generic type (`configure<T>(_ x: T, …) -> T`),
  /// the type of that argument.
  private static func returnType(of call: FunctionCallExprSyntax, index: ProjectIndex, depth: Int) -> String? {
    let callee = call.calledExpression
    if let name = SyntaxQueries.calleeName(of: call), let position = index.passthroughArgumentByFunction[name] {
      let arguments = Array(call.arguments)
      return position < arguments.count ? typeName(of: arguments[position].expression, index: index, depth: depth + 1) : nil
    }
    if let reference = callee.as(DeclReferenceExprSyntax.self) {
      let owner = SyntaxQueries.enclosingTypeName(of: call)
      return owner.flatMap { index.returnType(of: reference.baseName.text, in: $0) }
        ?? index.functionReturnTypesByType[""]?[reference.baseName.text]
    }
    guard let member = callee.as(MemberAccessExprSyntax.self), let base = member.base else { return nil }
    let ownerType = typeOfTypeExpression(base) ?? typeName(of: base, index: index, depth: depth)
    return ownerType.flatMap { index.returnType(of: member.declName.baseName.text, in: $0) }
  }

  /// `Model` when `expression` names a type (an uppercase identifier that is not a
  /// local or a property), for static members.
  private static func typeOfTypeExpression(_ expression: ExprSyntax) -> String? {
    if let reference = expression.as(DeclReferenceExprSyntax.self), SyntaxQueries.startsUppercase(reference.baseName.text) {
      return reference.baseName.text
    }
    if let typeExpression = expression.as(TypeExprSyntax.self) { return SyntaxQueries.simpleName(of: typeExpression.type) }
    return nil
  }

  private static func localType(
    named name: String, in items: CodeBlockItemListSyntax, before position: AbsolutePosition, index: ProjectIndex,
    depth: Int
  ) -> String? {
    var result: String?
    for item in items where item.endPosition <= position {
      guard let variable = item.item.as(VariableDeclSyntax.self) else { continue }
      for binding in variable.bindings where SyntaxQueries.boundName(of: binding) == name {
        result =
          SyntaxQueries.declaredTypeName(of: binding)
          ?? binding.initializer.flatMap { typeName(of: $0.value, index: index, depth: depth + 1) }
      }
    }
    return result
  }

  /// The type of `name` bound by `if let name = value` (or `guard let`).
  private static func boundType(
    named name: String, in conditions: ConditionElementListSyntax, index: ProjectIndex, depth: Int
  ) -> String? {
    for element in conditions {
      guard case .optionalBinding(let binding) = element.condition,
        binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name
      else { continue }
      if let type = binding.typeAnnotation?.type { return SyntaxQueries.simpleName(of: type) }
      if let value = binding.initializer?.value { return typeName(of: value, index: index, depth: depth + 1) }
      return nil
    }
    return nil
  }

  private static func parameterType(named name: String, in clause: FunctionParameterClauseSyntax) -> String? {
    for parameter in clause.parameters where (parameter.secondName ?? parameter.firstName).text == name {
      return SyntaxQueries.simpleName(of: parameter.type)
    }
    return nil
  }
}
