import SwiftSyntax

/// Reports Combine-era API uses that have no mechanical replacement.
///
/// After migration a model has no `objectWillChange` publisher and its
/// properties have no `$property` publishers, so code using them must be
/// rewritten by hand (typically with `withTracking`/`withObservationTracking`
/// or an async sequence of changes). The tool points at every such use.
enum ManualWorkScanner {
  static func scan(_ node: DeclReferenceExprSyntax, in context: FileContext) {
    let name = node.baseName.text
    if let member = node.parent?.as(MemberAccessExprSyntax.self), member.base == nil {
      return  // `.objectWillChange`, `.$x`: an implicit member (enum case), not a publisher.
    }
    if name == "StateObject" || name == "ObservedObject",
      let call = node.parent?.as(FunctionCallExprSyntax.self),
      call.calledExpression.id == node.id
    {
      let replacement = name == "StateObject" ? "State(wrappedValue:)" : "a plain stored property"
      context.report(
        .warning, .stateObjectInit, at: node,
        "'\(name)(...)' initialisation is not migrated automatically; rewrite it by hand (use \(replacement)) if the type is migrated")
      return
    }
    guard name.hasPrefix("$"), name.count > 1 else { return }
    let property = String(name.dropFirst())
    if let member = node.parent?.as(MemberAccessExprSyntax.self), member.declName.id == node.id {
      // `model.$books`: the publisher of a property of some other object.
      guard member.base != nil, context.index.allPublishedProperties.contains(property) else { return }
      reportPublisher(property, at: node, in: context)
    } else if let owner = SyntaxQueries.enclosingTypeName(of: node),
      context.index.observableObjectClasses.union(context.index.migratedSubclasses).contains(owner),
      context.index.publishedProperties(visibleIn: owner).contains(property)
    {
      // `$books` inside the model itself.
      reportPublisher(property, at: node, in: context)
    }
  }

  private static func reportPublisher(_ property: String, at node: DeclReferenceExprSyntax, in context: FileContext) {
    context.report(
      .warning, .publisherUse, at: node,
      "'$\(property)' is the Combine publisher of a @Published property, which no longer exists after migration; rewrite this by hand using observation tracking")
  }

  /// `extension X: ObservableObject` cannot be migrated: the macro must be on
  /// the class declaration.
  static func scan(_ node: ExtensionDeclSyntax, in context: FileContext) {
    guard let inherited = node.inheritanceClause?.inheritedTypes,
      let conformance = inherited.first(where: { SyntaxQueries.isObservableObject($0.type) })
    else { return }
    context.report(
      .warning, .unsupportedConformance, at: conformance,
      "ObservableObject conformance declared in an extension is not migrated; move it to the class declaration and run again")
  }
}
