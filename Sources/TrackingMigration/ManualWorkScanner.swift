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

  /// `extension X: ObservableObject`: when the class `X` is among the inputs, it
  /// gets the macro (see ``ModelMigration``) and the conformance goes; otherwise
  /// the macro cannot be added and the site is reported.
  static func scan(_ node: ExtensionDeclSyntax, in context: FileContext) {
    guard let inherited = node.inheritanceClause?.inheritedTypes, let clause = node.inheritanceClause,
      let position = inherited.firstIndex(where: { SyntaxQueries.isObservableObject($0.type) })
    else { return }
    let conformance = inherited[position]
    if let name = SyntaxQueries.simpleName(of: node.extendedType), context.index.classInheritance[name] != nil {
      InheritanceEditing.remove(at: position, from: inherited, clause: clause, in: context)
      context.converted(conformance.type)
      return
    }
    context.report(
      .warning, .unsupportedConformance, at: conformance,
      "ObservableObject conformance declared in an extension of a class that is not among the inputs; the macro must be on the class declaration: migrate the file that declares it together with this one")
  }
}
