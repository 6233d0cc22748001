import SwiftSyntax

/// Assignments to a property wrapper's backing storage, usually in an initializer:
/// `_model = StateObject(wrappedValue: Model())`, `self._title = Published(initialValue: "")`.
enum WrapperAssignment {
  /// The wrapped property whose backing storage `call` is assigned to: `x` for
  /// `_x = call` or `self._x = call`.
  static func backingProperty(assignedBy call: FunctionCallExprSyntax) -> String? {
    guard let target = SyntaxQueries.assignmentTarget(of: call),
      let name = SyntaxQueries.assignedPropertyName(target), name.hasPrefix("_"), name.count > 1
    else { return nil }
    return String(name.dropFirst())
  }

  /// Migrates a wrapper initialization found by ``SiteScanner`` (or reports it).
  static func migrate(_ call: FunctionCallExprSyntax, in context: FileContext) {
    let named = SyntaxQueries.wrapperTypeName(calledBy: call)
    guard let property = backingProperty(assignedBy: call) else {
      context.report(
        .warning, .stateObjectInit, at: call,
        "'\(named ?? "wrapper")(…)' outside an assignment to a property's storage is not migrated; rewrite it for the new wrapper by hand")
      return
    }
    let wrapper = named ?? SyntaxQueries.enclosingTypeName(of: call).flatMap { context.index.wrapper(of: property, in: $0) }
    if wrapper == "Published" {
      migratePublished(call, property: property, in: context)
    } else {
      migrateViewWrapper(call, property: property, in: context)
    }
  }

  /// The `_x` token of the assignment target of `call`.
  static func backingToken(assignedBy call: FunctionCallExprSyntax) -> TokenSyntax? {
    guard let target = SyntaxQueries.assignmentTarget(of: call) else { return nil }
    if let reference = target.as(DeclReferenceExprSyntax.self) { return reference.baseName }
    return target.as(MemberAccessExprSyntax.self)?.declName.baseName
  }

  /// The value a wrapper initializer wraps: the argument labelled `wrappedValue:` or
  /// `initialValue:`, when it is the only one.
  static func wrappedValue(of call: FunctionCallExprSyntax) -> ExprSyntax? {
    guard call.arguments.count == 1, let argument = call.arguments.first,
      ["wrappedValue", "initialValue"].contains(argument.label?.text ?? "")
    else { return nil }
    return argument.expression
  }

  /// `_x = Published(initialValue: v)` in a migrated class: the macro's storage is
  /// assigned directly. Without an initial value on the declaration the property
  /// has an `init` accessor, so `x = v` initializes it (the documented way);
  /// with one, the value goes to the macro's `_x` storage, which an initializer of
  /// the class may assign before every property is initialized, as it could the
  /// wrapper.
  static func migratePublished(_ call: FunctionCallExprSyntax, property: String, in context: FileContext) {
    guard let owner = SyntaxQueries.enclosingTypeName(of: call), context.index.isMigrated(owner),
      context.index.publishedProperties(visibleIn: owner).contains(property),
      let value = wrappedValue(of: call), let token = backingToken(assignedBy: call)
    else {
      context.report(
        .warning, .stateObjectInit, at: call,
        "'_\(property) = Published(…)' sets a @Published wrapper that no longer exists after migration; assign the property itself ('\(property) = …') in the initializer")
      return
    }
    let hasInitialValue = context.index.initializedPublishedByClass[owner]?.contains(property) ?? false
    if !hasInitialValue {
      // `self.` keeps a parameter of the same name from shadowing the property.
      let qualified = token.parent?.parent?.is(MemberAccessExprSyntax.self) ?? false
      context.replace(token, with: qualified ? property : "self.\(property)")
    }
    context.replace(call, with: value.trimmedDescription)
    context.converted(call)
  }

  /// `_model = StateObject(wrappedValue: Model())` in a view's initializer, for a
  /// property whose wrapper ``ViewMigration`` rewrites: `StateObject` → `State`,
  /// `ObservedObject` → `Bindable` (or, when the property becomes a plain stored
  /// property, `self.model = value`). `.init(wrappedValue:)` keeps its spelling:
  /// it names the new wrapper's initializer.
  static func migrateViewWrapper(_ call: FunctionCallExprSyntax, property: String, in context: FileContext) {
    let index = context.index
    guard let owner = SyntaxQueries.enclosingTypeName(of: call), let wrapper = index.wrapper(of: property, in: owner) else {
      return
    }
    guard let typeName = index.propertyType(property, of: owner) else {
      context.report(
        .warning, .stateObjectInit, at: call,
        "cannot determine the type of '\(property)', so its @\(wrapper) and this initialization are left unchanged")
      return
    }
    guard index.observableTypes.contains(typeName)
      || (wrapper != "EnvironmentObject" && index.isObservableGenericParameter(typeName, in: owner))
    else {
      External.keep(typeName, "'_\(property) = \(wrapper)(…)'", at: call, in: context)
      return
    }
    guard let value = wrappedValue(of: call) else {
      context.report(
        .warning, .stateObjectInit, at: call,
        "initialize '_\(property)' with the value the new wrapper wraps (for example '_\(property) = State(wrappedValue: …)')")
      return
    }
    let explicitName = SyntaxQueries.wrapperTypeName(calledBy: call)
    switch wrapper {
    case "StateObject":
      if explicitName != nil, let name = call.calledExpression.as(DeclReferenceExprSyntax.self) {
        context.replace(name, with: "State")
      } else if explicitName != nil, let member = call.calledExpression.as(MemberAccessExprSyntax.self) {
        context.replace(member, with: member.declName.baseName.text == "init" ? "State.init" : "State")
      }
      context.converted(call)
      StateCreation.check(typeName, createdBy: value, at: call, in: context)
    case "ObservedObject":
      let usesBindings = index.dollarReferencesByType[owner]?.contains(property) ?? false
      if usesBindings {
        if explicitName != nil { context.replace(call.calledExpression, with: "Bindable") }
      } else if let token = backingToken(assignedBy: call) {
        let qualified = token.parent?.parent?.is(MemberAccessExprSyntax.self) ?? false
        context.replace(token, with: qualified ? property : "self.\(property)")
        context.replace(call, with: value.trimmedDescription)
      }
      context.converted(call)
    default:
      context.report(
        .warning, .stateObjectInit, at: call,
        "'\(property)' is now read with @Environment(\(typeName).self), which has no initializer to call here; remove this line and provide the object with .environment(_:)")
    }
  }
}
