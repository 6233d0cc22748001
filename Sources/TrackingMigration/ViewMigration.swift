import SwiftSyntax

/// Rewrites SwiftUI's `ObservableObject` property wrappers and modifiers.
///
/// | Before                               | After                                   |
/// |--------------------------------------|-----------------------------------------|
/// | `@StateObject var x = X()`           | `@State var x = X()`                    |
/// | `@EnvironmentObject var x: X`        | `@Environment(X.self) var x`            |
/// | `@ObservedObject var x: X` + `$x.y`  | `@Bindable var x: X`                    |
/// | `@ObservedObject var x: X`           | `var x: X`                              |
/// | `.environmentObject(x)`              | `.environment(x)`                       |
///
/// Each rewrite happens only when the object's type is a class that this run
/// migrates (or that already uses an observation macro). Otherwise the code
/// is left as is and an `unknown-type` warning is reported: the type may be an
/// `ObservableObject` declared in another module, for which the old wrappers
/// are still correct.
enum ViewMigration {
  static let wrapperNames: Set<String> = ["StateObject", "EnvironmentObject", "ObservedObject"]

  static func migrate(_ variable: VariableDeclSyntax, in context: FileContext) {
    guard let attribute = SyntaxQueries.attribute(in: variable.attributes, named: wrapperNames)
    else { return }
    let wrapper = SyntaxQueries.name(of: attribute)
    guard variable.bindings.count == 1, let binding = variable.bindings.first,
      let property = SyntaxQueries.boundName(of: binding)
    else {
      context.report(.warning, .unknownType, at: attribute, "@\(wrapper) with several bindings is not migrated; split the declaration")
      return
    }
    guard let typeName = SyntaxQueries.declaredTypeName(of: binding) else {
      context.report(
        .warning, .unknownType, at: attribute,
        "cannot determine the type of '\(property)'; @\(wrapper) left unchanged (add a type annotation and run again)")
      return
    }
    guard context.index.observableTypes.contains(typeName) else {
      context.report(
        .warning, .unknownType, at: attribute,
        "'\(typeName)' was not found as an ObservableObject class in the parsed inputs (it may be declared in another module); @\(wrapper) left unchanged")
      return
    }

    context.converted(attribute)
    switch wrapper {
    case "StateObject":
      context.replace(attribute.attributeName, with: "State")
    case "EnvironmentObject":
      guard let annotation = binding.typeAnnotation else {
        context.report(.warning, .unknownType, at: attribute, "@EnvironmentObject without a type annotation left unchanged")
        return
      }
      context.replace(attribute, with: "@Environment(\(annotation.type.trimmedDescription).self)")
      context.remove(context.trimmedRange(of: annotation))
    default:
      let owner = SyntaxQueries.enclosingTypeName(of: variable)
      let usesBindings = owner.map { context.index.dollarReferencesByType[$0]?.contains(property) ?? false } ?? false
      if usesBindings {
        context.replace(attribute.attributeName, with: "Bindable")
      } else {
        context.remove(attribute)
      }
    }
  }

  /// `.environmentObject(x)` → `.environment(x)` when `x`'s type is migrated.
  static func migrate(_ call: FunctionCallExprSyntax, in context: FileContext) {
    guard let member = call.calledExpression.as(MemberAccessExprSyntax.self),
      member.declName.baseName.text == "environmentObject",
      call.arguments.count == 1, let argument = call.arguments.first, argument.label == nil
    else { return }
    guard let typeName = ExpressionTypeResolver.typeName(of: argument.expression, index: context.index) else {
      context.report(
        .warning, .unknownType, at: member.declName,
        "cannot determine the type of '\(argument.expression.trimmedDescription)'; environmentObject(_:) left unchanged")
      return
    }
    guard context.index.observableTypes.contains(typeName) else {
      context.report(
        .warning, .unknownType, at: member.declName,
        "'\(typeName)' was not found as an ObservableObject class in the parsed inputs (it may be declared in another module); environmentObject(_:) left unchanged")
      return
    }
    context.replace(member.declName, with: "environment")
    context.converted(member.declName)
  }
}

/// Finds the static type of simple expressions by looking at nearby declarations.
///
/// Deliberately small: it understands `Type(...)`, and identifiers (optionally
/// `self.`-qualified) declared as a local with an annotation or initializer, a
/// function parameter, or a property of the enclosing type in any input file.
/// Anything else yields `nil`, which callers treat conservatively.
enum ExpressionTypeResolver {
  static func typeName(of expression: ExprSyntax, index: ProjectIndex) -> String? {
    if let constructed = SyntaxQueries.constructedTypeName(expression) { return constructed }
    let name: String
    if let reference = expression.as(DeclReferenceExprSyntax.self) {
      name = reference.baseName.text
    } else if let member = expression.as(MemberAccessExprSyntax.self),
      member.base?.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self)
    {
      return propertyType(named: member.declName.baseName.text, around: expression, index: index)
    } else {
      return nil
    }
    var current = expression.parent
    while let node = current {
      if let items = node.as(CodeBlockItemListSyntax.self),
        let found = localType(named: name, in: items, before: expression.position)
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
    return propertyType(named: name, around: expression, index: index)
  }

  private static func propertyType(named name: String, around node: some SyntaxProtocol, index: ProjectIndex) -> String? {
    guard let owner = SyntaxQueries.enclosingTypeName(of: node) else { return nil }
    return index.propertyTypesByType[owner]?[name]
  }

  private static func localType(named name: String, in items: CodeBlockItemListSyntax, before position: AbsolutePosition) -> String? {
    var result: String?
    for item in items where item.position < position {
      guard let variable = item.item.as(VariableDeclSyntax.self) else { continue }
      for binding in variable.bindings where SyntaxQueries.boundName(of: binding) == name {
        result = SyntaxQueries.declaredTypeName(of: binding)
      }
    }
    return result
  }

  private static func parameterType(named name: String, in clause: FunctionParameterClauseSyntax) -> String? {
    for parameter in clause.parameters where (parameter.secondName ?? parameter.firstName).text == name {
      return SyntaxQueries.simpleName(of: parameter.type)
    }
    return nil
  }
}
