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
    let inheritedTypes = node.inheritanceClause?.inheritedTypes
    let conformanceIndex = inheritedTypes?.firstIndex { SyntaxQueries.isObservableObject($0.type) }
    let isSubclass = conformanceIndex == nil && context.index.migratedSubclasses.contains(name)
    guard conformanceIndex != nil || isSubclass else {
      reportUnmigratedPublished(in: node, context: context)
      return
    }

    if SyntaxQueries.attribute(in: node.attributes, named: observationMacroNames) == nil {
      context.insert("@\(context.target.macroName) ", before: node)
    }
    if let inheritedTypes, let conformanceIndex {
      removeConformance(at: conformanceIndex, from: inheritedTypes, clause: node.inheritanceClause!, in: context)
      context.converted(inheritedTypes[conformanceIndex].type)
    }
    if isSubclass {
      context.report(
        .note, .migratedSubclass, at: node.name,
        "'\(name)' inherits from a migrated ObservableObject class; added @\(context.target.macroName) so its own properties are observed")
    }
    // Members inside `#if` are migrated too, in every clause.
    for variable in SyntaxQueries.variableMembers(of: node.memberBlock) {
      migrateProperty(variable, in: context)
    }
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
      .warning, .unknownType, at: node.name, covering: node,
      "'\(node.name.text)' has @Published properties but no ObservableObject conformance was found among the inputs (it may come from a superclass in another module); left unchanged")
  }

  /// Removes one entry of an inheritance clause, fixing commas and the colon.
  private static func removeConformance(
    at position: InheritedTypeListSyntax.Index,
    from list: InheritedTypeListSyntax,
    clause: InheritanceClauseSyntax,
    in context: FileContext
  ) {
    let element = list[position]
    if list.count == 1 {
      // `class X: ObservableObject {` → `class X {`: the colon goes too.
      context.remove(context.trimmedRange(of: clause))
    } else if list.index(after: position) != list.endIndex {
      // First or middle: remove `ObservableObject,` (the element owns its comma).
      context.remove(element)
    } else {
      // Last: remove the previous element's comma through this element.
      let previous = list[list.index(before: position)]
      guard let comma = previous.trailingComma else { return }
      let start = comma.positionAfterSkippingLeadingTrivia.utf8Offset
      let end = element.endPositionBeforeTrailingTrivia.utf8Offset
      context.remove(start..<end)
    }
  }

  private static func migrateProperty(_ variable: VariableDeclSyntax, in context: FileContext) {
    if let published = SyntaxQueries.attribute(in: variable.attributes, named: ["Published"]) {
      context.remove(published)
      context.converted(published)
      return
    }
    let ignoreNames: Set<String> = ["TrackingIgnored", "ObservationIgnored"]
    guard variable.bindingSpecifier.tokenKind == .keyword(.var),
      !SyntaxQueries.isTypeMember(variable.modifiers),
      SyntaxQueries.attribute(in: variable.attributes, named: ignoreNames) == nil,
      variable.bindings.allSatisfy(SyntaxQueries.isStored)
    else { return }
    let attribute = context.target.ignoredAttributeName
    context.insert("@\(attribute) ", before: variable)
    let names = variable.bindings.compactMap(SyntaxQueries.boundName).joined(separator: "', '")
    context.report(
      .note, .ignoredProperty, at: variable,
      "'\(names)' was not @Published, so changes to it did not update views; marked @\(attribute) to keep that behaviour (remove the attribute if it should be observed)")
  }
}
