import SwiftSyntax

/// `extension X: ObservableObject`.
enum ExtensionConformanceMigration {
  /// `extension X: ObservableObject`: when the class `X` is among the inputs, it
  /// gets the macro (see ``ModelMigration``) and the conformance goes; otherwise
  /// the macro cannot be added and the site is reported.
  static func migrate(_ node: ExtensionDeclSyntax, in context: FileContext) {
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
