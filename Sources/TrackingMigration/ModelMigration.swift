import SwiftSyntax

/// Rewrites `ObservableObject` classes to the observation macro.
///
/// Apple's migration steps for a model class:
/// 1. add the macro attribute (`@Trackable`, or `@Observable` for `--target apple`),
/// 2. remove the `ObservableObject` conformance (other conformances stay),
/// 3. remove `@Published` — with the macro every stored `var` is observed.
///
/// Step 3 changes behaviour for stored `var`s that were *not* `@Published`:
/// they were never observed before, and would be after. To keep the program's
/// behaviour, the tool marks them with the ignore attribute and reports a note,
/// so the developer can decide to remove it.
enum ModelMigration {
  static func migrate(_ node: ClassDeclSyntax, in context: FileContext) {
    let name = node.name.text
    let index = context.index
    let inheritedTypes = node.inheritanceClause?.inheritedTypes
    let conformanceIndex = inheritedTypes?.firstIndex { SyntaxQueries.isObservableObject($0.type) }
    let viaProtocol = inheritedTypes?.contains {
      SyntaxQueries.simpleName(of: $0.type).map(index.observableProtocols.contains) ?? false
    } ?? false
    let viaExtension = (index.extensionConformances[name] ?? []).contains {
      SyntaxQueries.isObservableObjectName($0) || index.observableProtocols.contains($0)
    }
    let isSubclass =
      conformanceIndex == nil && !viaProtocol && !viaExtension
      && (inheritedTypes?.first.flatMap { SyntaxQueries.simpleName(of: $0.type) }.map(index.isMigrated) ?? false)
    guard conformanceIndex != nil || viaProtocol || viaExtension || isSubclass else {
      reportUnmigratedPublished(in: node, context: context)
      return
    }

    if SyntaxQueries.attribute(in: node.attributes, named: observationMacroNames) == nil {
      context.insert("@\(context.target.macroName) ", before: node)
    }
    if let inheritedTypes, let conformanceIndex, let clause = node.inheritanceClause {
      InheritanceEditing.remove(at: conformanceIndex, from: inheritedTypes, clause: clause, in: context)
      context.converted(inheritedTypes[conformanceIndex].type)
    }
    if isSubclass {
      context.report(
        .note, .migratedSubclass, at: node.name,
        "'\(name)' inherits from a migrated ObservableObject class; added @\(context.target.macroName) so its own properties are observed")
    }
    // Members inside `#if` are migrated too, in every clause.
    for variable in SyntaxQueries.variableMembers(of: node.memberBlock) {
      ModelPropertyMigration.migrate(variable, of: name, in: context)
    }
    CodableMigration.migrate(node, in: context)
    context.needsMacroImport = true
  }

  /// A class with `@Published` properties whose `ObservableObject` conformance
  /// comes from somewhere the tool cannot see (a superclass or extension in
  /// another module) is left alone, and reported.
  private static func reportUnmigratedPublished(in node: ClassDeclSyntax, context: FileContext) {
    guard !context.index.macroObservableClasses.contains(node.name.text) else { return }
    let hasPublished = SyntaxQueries.variableMembers(of: node.memberBlock).contains {
      SyntaxQueries.attribute(in: $0.attributes, named: ["Published"]) != nil
    }
    guard hasPublished else { return }
    context.report(
      .note, .unknownType, at: node.name,
      "'\(node.name.text)' has @Published properties but no ObservableObject conformance was found among the inputs, so it is left unchanged (its $ publishers keep working); if a superclass in another module makes it an ObservableObject, migrate that module first")
  }
}
