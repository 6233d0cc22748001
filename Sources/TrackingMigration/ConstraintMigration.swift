import SwiftSyntax

/// `ObservableObject` written as a type outside a class's inheritance clause.
///
/// - `protocol P: ObservableObject` becomes `protocol P: AnyObject`: the protocol
///   stays class-bound, and the classes that conform to it are migrated like any
///   `ObservableObject` (see ``ProjectIndex``). Views that hold a generic `T: P`
///   are then migrated like views that hold a migrated class.
/// - A generic constraint `T: ObservableObject` that also requires such a
///   protocol (`T: ObservableObject & P`, `where T: P`) becomes `AnyObject`: the
///   protocol says what `T` is.
/// - Any other use (`T: ObservableObject` alone, `some`/`any ObservableObject`, a
///   cast) is reported: after migration a model is not an `ObservableObject`, and
///   the tool cannot know whether every type used there is migrated.
enum ConstraintMigration {
  static func migrate(_ type: TypeSyntax, in context: FileContext) {
    guard SyntaxQueries.isObservableObject(type), SiteScanner.kind(ofObservableObjectType: Syntax(type)) != .conformance else {
      return
    }
    if let inherited = type.parent?.as(InheritedTypeSyntax.self),
      let list = inherited.parent?.as(InheritedTypeListSyntax.self),
      let clause = list.parent?.as(InheritanceClauseSyntax.self), clause.parent?.is(ProtocolDeclSyntax.self) == true
    {
      let alreadyClassBound = list.contains { ["AnyObject", "class"].contains($0.type.trimmedDescription) }
      if alreadyClassBound, let position = list.firstIndex(where: { $0.id == inherited.id }) {
        InheritanceEditing.remove(at: position, from: list, clause: clause, in: context)
      } else {
        context.replace(type, with: "AnyObject")
      }
      context.converted(type)
      return
    }
    if let parameter = constrainedParameter(of: type),
      let owner = SyntaxQueries.enclosingTypeName(of: type) ?? SyntaxQueries.enclosingFunctionOwner(of: type),
      context.index.isObservableGenericParameter(parameter, in: owner)
    {
      context.replace(type, with: "AnyObject")
      context.converted(type)
      return
    }
    let advice =
      context.target == .apple
      ? "use 'AnyObject & Observable' here if every type used for it is migrated (SwiftUI needs Observable for @Bindable and @Environment), or keep ObservableObject for types that stay ObservableObjects"
      : "use 'AnyObject' (or 'AnyObject & Observable' where SwiftUI needs it for @Bindable and @Environment) if every type used for it is migrated, or keep ObservableObject for types that stay ObservableObjects"
    context.report(
      .warning, .observableConstraint, at: type,
      "after migration, models are no longer ObservableObjects, so this ObservableObject constraint no longer matches them; \(advice)")
  }

  /// The generic parameter a constraint applies to: `T` in `<T: ObservableObject>`,
  /// `where T: ObservableObject` or `T: ObservableObject & P`.
  private static func constrainedParameter(of type: TypeSyntax) -> String? {
    var node = Syntax(type)
    if let composition = node.parent?.parent?.parent?.as(CompositionTypeSyntax.self) { node = Syntax(composition) }
    if let parameter = node.parent?.as(GenericParameterSyntax.self) { return parameter.name.text }
    if let requirement = node.parent?.as(ConformanceRequirementSyntax.self) {
      return SyntaxQueries.simpleName(of: requirement.leftType)
    }
    return nil
  }
}
