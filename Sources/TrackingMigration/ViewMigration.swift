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
/// migrates (or that already uses an observation macro), found from the
/// declaration's annotation or from its initial value (`Model.shared`,
/// `store.session`, see ``ExpressionTypeResolver``). Otherwise the code is left as
/// is and an `unknown-type` warning is reported: the type may be an
/// `ObservableObject` declared in another module, for which the old wrappers are
/// still correct.
///
/// A generic parameter constrained to a protocol that refined `ObservableObject`
/// stands for migrated classes: `@StateObject` and `@ObservedObject` are migrated;
/// `@EnvironmentObject`, `environmentObject(_:)` and `$x` bindings need SwiftUI's
/// `Observable`, which such a protocol does not promise, and are reported.
enum ViewMigration {
  static let wrapperNames: Set<String> = ["StateObject", "EnvironmentObject", "ObservedObject"]

  static func migrate(_ variable: VariableDeclSyntax, in context: FileContext) {
    if let state = SyntaxQueries.attribute(in: variable.attributes, named: ["State"]) {
      StateCreation.check(variable, heldBy: state, in: context)
      return
    }
    guard let attribute = SyntaxQueries.attribute(in: variable.attributes, named: wrapperNames) else { return }
    let wrapper = SyntaxQueries.name(of: attribute)
    let index = context.index
    guard variable.bindings.count == 1, let binding = variable.bindings.first,
      let property = SyntaxQueries.boundName(of: binding)
    else {
      context.report(.warning, .unknownType, at: attribute, "@\(wrapper) with several bindings is not migrated; split the declaration")
      return
    }
    let owner = SyntaxQueries.enclosingTypeName(of: variable)
    guard
      let typeName = SyntaxQueries.declaredTypeName(of: binding)
        ?? binding.initializer.flatMap({ ExpressionTypeResolver.typeName(of: $0.value, index: index) })
    else {
      context.report(
        .warning, .unknownType, at: attribute,
        "cannot determine the type of '\(property)'; @\(wrapper) left unchanged (add a type annotation and run again)")
      return
    }
    let isGeneric = !index.observableTypes.contains(typeName) && index.isObservableGenericParameter(typeName, in: owner)
    guard index.observableTypes.contains(typeName) || isGeneric else {
      External.keep(typeName, "@\(wrapper)", at: attribute, in: context)
      return
    }

    switch wrapper {
    case "StateObject":
      context.replace(attribute.attributeName, with: index.swiftUIName("State", at: attribute))
      context.converted(attribute)
      // Without an initial value, the view's initializer supplies it: an explicit
      // `_x = StateObject(wrappedValue:)` is checked there; a memberwise one here.
      let assignedInInit = owner.map { index.assignedWrapperStorageByType[$0]?.contains(property) ?? false } ?? false
      if binding.initializer != nil || !assignedInInit {
        StateCreation.check(typeName, createdBy: binding.initializer?.value, at: attribute, in: context)
      }
    case "EnvironmentObject":
      guard !isGeneric, let annotation = binding.typeAnnotation else {
        context.report(
          .warning, .unknownType, at: attribute,
          "'\(typeName)' is a generic parameter: @Environment(\(typeName).self) needs it to be Observable; add 'Observable' to its constraint (or to the protocol it requires), then use @Environment(\(typeName).self)")
        return
      }
      let environment = index.swiftUIName("Environment", at: attribute)
      context.replace(attribute, with: "@\(environment)(\(annotation.type.trimmedDescription).self)")
      context.remove(context.trimmedRange(of: annotation))
      context.converted(attribute)
    default:
      let usesBindings = owner.map { index.dollarReferencesByType[$0]?.contains(property) ?? false } ?? false
      if usesBindings && isGeneric {
        context.report(
          .warning, .unknownType, at: attribute,
          "'$\(property)' bindings need @Bindable, which needs '\(typeName)' to be Observable; add 'Observable' to its constraint (or to the protocol it requires), then use @Bindable")
        return
      }
      if usesBindings {
        context.replace(attribute.attributeName, with: index.swiftUIName("Bindable", at: attribute))
      } else {
        context.remove(attribute)
        if keepsMemberwiseInitializerAccess(variable, binding) {
          context.replace(variable.bindingSpecifier, with: "let")
        }
      }
      context.converted(attribute)
    }
  }

  /// Whether a `private` or `fileprivate` property with an initial value that loses
  /// its wrapper must become a `let` for its struct's memberwise initializer to keep
  /// its access. A wrapped property with an initial value does not lower the
  /// memberwise initializer's access; a plain `var` does (the initializer takes it as
  /// an argument), so callers in other files would no longer compile. A `let` with an
  /// initial value is not an argument at all. Applies when the struct relies on the
  /// memberwise initializer (it declares none) and never assigns the property.
  private static func keepsMemberwiseInitializerAccess(_ variable: VariableDeclSyntax, _ binding: PatternBindingSyntax) -> Bool {
    guard binding.initializer != nil, binding.accessorBlock == nil,
      variable.modifiers.contains(where: { modifier in
        [.keyword(.private), .keyword(.fileprivate)].contains(modifier.name.tokenKind) && modifier.detail == nil
      }),
      let property = SyntaxQueries.boundName(of: binding)
    else { return false }
    var current = variable.parent
    while let node = current, !node.is(StructDeclSyntax.self) {
      if node.is(ClassDeclSyntax.self) || node.is(ExtensionDeclSyntax.self) || node.is(EnumDeclSyntax.self) { return false }
      current = node.parent
    }
    guard let owner = current?.as(StructDeclSyntax.self) else { return false }
    let declaresInitializer = SyntaxQueries.memberDecls(of: owner.memberBlock).contains { $0.is(InitializerDeclSyntax.self) }
    return !declaresInitializer && !BodyEffects.of(owner.memberBlock).assignedRoots.contains(property)
  }

  /// `.environmentObject(x)` → `.environment(x)` when `x`'s type is migrated (also
  /// `environmentObject(x)` on an implicit `self`, in a `View` extension or method).
  static func migrate(_ call: FunctionCallExprSyntax, in context: FileContext) {
    guard let name = SiteScanner.environmentObjectName(calledBy: call),
      call.arguments.count == 1, let argument = call.arguments.first, argument.label == nil
    else { return }
    let index = context.index
    guard let typeName = ExpressionTypeResolver.typeName(of: argument.expression, index: index) else {
      let readers = index.environmentObjectTypes.intersection(index.observableTypes).sorted()
      let hint =
        readers.isEmpty
        ? ""
        : " If it is one of the migrated models read with @Environment (\(readers.prefix(4).joined(separator: ", "))\(readers.count > 4 ? ", …" : "")), use .environment(_:) instead: the readers now look it up by type, and would not find it."
      context.report(
        .warning, .unknownType, at: name,
        "cannot determine the type of '\(argument.expression.trimmedDescription)'; environmentObject(_:) left unchanged.\(hint)")
      return
    }
    let owner = SyntaxQueries.enclosingTypeName(of: call)
    if !index.observableTypes.contains(typeName), index.isObservableGenericParameter(typeName, in: owner) {
      context.report(
        .warning, .unknownType, at: name,
        "'\(typeName)' is a generic parameter: .environment(_:) needs it to be Observable; add 'Observable' to its constraint (or to the protocol it requires), then use .environment(_:)")
      return
    }
    guard index.observableTypes.contains(typeName) else {
      External.keep(typeName, "environmentObject(_:)", at: name, in: context)
      return
    }
    context.replace(name, with: "environment")
    context.converted(name)
  }
}

/// A wrapper whose object's type is not migrated by this run.
enum External {
  /// A type declared in none of the inputs comes from another module, so it is an
  /// `ObservableObject` there (the code compiled) and its wrapper stays correct: the
  /// site is kept, with a note; so is one of a class the run leaves an
  /// `ObservableObject` (see ``ProjectIndex/heldBackClasses``). A type declared in the
  /// inputs that is not a migrated class (a protocol, a type alias, a generic
  /// parameter) is reported.
  static func keep(_ typeName: String, _ construct: String, at node: some SyntaxProtocol, in context: FileContext) {
    if context.index.heldBackClasses[typeName] != nil {
      context.kept(node)
      context.report(
        .note, .unknownType, at: node,
        "'\(typeName)' stays an ObservableObject (see the warning on its declaration): \(construct) stays as it is")
    } else if context.index.declaredTypes.contains(typeName) {
      context.report(
        .warning, .unknownType, at: node,
        "'\(typeName)' is not a class this run migrates (a protocol, a type alias or a generic parameter?); \(construct) left unchanged: migrate it by hand if it stands for migrated models")
    } else {
      context.kept(node)
      context.report(
        .note, .unknownType, at: node,
        "'\(typeName)' is declared in another module, where it is an ObservableObject: \(construct) stays as it is (migrate that module, then run this again on both)")
    }
  }
}

/// `@StateObject` created its object once per view identity (its initial value is
/// an autoclosure); `@State` evaluates its initial value each time the view is
/// created and keeps the first. An initializer that starts work (a task, a
/// subscription, a timer) then starts it for every discarded instance too.
enum StateCreation {
  /// `@State var model = Model()` (or `@State var model: Model`, set by the memberwise
  /// initializer) holding an observable class, migrated by an earlier run or written
  /// so: the same check as when `@StateObject` becomes `@State`, so that a second run
  /// reports it again.
  static func check(_ variable: VariableDeclSyntax, heldBy attribute: AttributeSyntax, in context: FileContext) {
    let index = context.index
    guard variable.bindings.count == 1, let binding = variable.bindings.first,
      let property = SyntaxQueries.boundName(of: binding), IndexCollector.createsValueOnViewInit(binding),
      let typeName = SyntaxQueries.declaredTypeName(of: binding)
        ?? binding.initializer.flatMap({ ExpressionTypeResolver.typeName(of: $0.value, index: index) }),
      index.observableTypes.contains(typeName)
    else { return }
    let owner = SyntaxQueries.enclosingTypeName(of: variable)
    let assignedInInit = owner.map { index.assignedWrapperStorageByType[$0]?.contains(property) ?? false } ?? false
    if binding.initializer != nil || !assignedInInit {
      check(typeName, createdBy: binding.initializer?.value, at: attribute, in: context)
    }
  }

  /// `_model = State(wrappedValue: Model())` (or `.init(wrappedValue:)`) for an
  /// observable class (see above).
  static func check(stateInitialization call: FunctionCallExprSyntax, in context: FileContext) {
    let index = context.index
    let implicitInit = call.calledExpression.as(MemberAccessExprSyntax.self)
      .map { $0.base == nil && $0.declName.baseName.text == "init" } ?? false
    guard implicitInit || SyntaxQueries.wrapperTypeName(calledBy: call) == "State",
      let property = WrapperAssignment.backingProperty(assignedBy: call),
      let owner = SyntaxQueries.enclosingTypeName(of: call), index.wrapper(of: property, in: owner) == "State",
      let typeName = index.propertyType(property, of: owner), index.observableTypes.contains(typeName),
      let value = WrapperAssignment.wrappedValue(of: call)
    else { return }
    check(typeName, createdBy: value, at: call, in: context)
  }

  /// Reports when `typeName`'s initializer has side effects and `value` (the
  /// expression now evaluated on every view initialization, or `nil` when the
  /// view's own initializer supplies it) creates a new instance.
  static func check(_ typeName: String, createdBy value: ExprSyntax?, at node: some SyntaxProtocol, in context: FileContext) {
    guard let effect = context.index.initializerSideEffectsByType[typeName] else { return }
    if let value, !value.is(FunctionCallExprSyntax.self) { return }  // `Model.shared`: no new instance.
    let source = value.map { "'\($0.trimmedDescription)'" } ?? "the value the view's initializer receives"
    context.report(
      .warning, .stateInitSideEffects, at: node,
      "'\(typeName)' is now held in @State, which evaluates \(source) each time the view is initialized and keeps only the first instance (@StateObject created it once); '\(typeName).init' \(effect), so every discarded instance does too. Create the object once (in the parent, or in .task { }), or move that work out of init")
  }
}
