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
      if let target = macroTarget(of: node) {
        reviewMacroClass(node, target: target, in: context)
      } else {
        reportUnmigratedPublished(in: node, context: context)
      }
      return
    }
    if let macro = index.heldBackClasses[name] {
      if let outer = index.privateNestedClasses[name], macro == "private" {
        context.report(
          .warning, .privateNestedModel, at: node.name, covering: node,
          "'\(name)' is private inside '\(outer)': the conformance that @\(context.target.macroName) adds, in an extension at file scope, cannot see a private nested type (Swift reports it inaccessible; Apple's @Observable too). '\(name)' stays an ObservableObject: make it fileprivate (and the types its members use) or move it out of '\(outer)', then run again")
        return
      }
      if let subclass = index.heldBackForSubclass[name] {
        context.report(
          .warning, .attachedMacro, at: node.name, covering: node,
          "its subclass '\(subclass)' has '\(macro)', which may be a macro that adds members the tool cannot see: a @Published property it generates would no longer update views once '\(name)' is @\(context.target.macroName). '\(name)' and its subclasses stay ObservableObjects: migrate them (and what the macro generates) by hand")
        return
      }
      let attribute = node.attributes.first { "@" + ($0.as(AttributeSyntax.self).map(SyntaxQueries.name(of:)) ?? "") == macro }
      context.report(
        .warning, .attachedMacro, at: attribute.map(Syntax.init) ?? Syntax(node.name), covering: node,
        "'\(macro)' may be a macro that adds members the tool cannot see: a @Published property it generates would no longer update views once '\(name)' is @\(context.target.macroName). '\(name)' stays an ObservableObject: migrate it (and what the macro generates) by hand")
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
    // What only held forwarding subscriptions goes with them (see ObjectWillChangeMigration).
    let unused = Set(Forwarding.storageOnlyForForwarding(in: node, index: index).map(\.id))
    // Members inside `#if` are migrated too, in every clause.
    for variable in SyntaxQueries.variableMembers(of: node.memberBlock) {
      if unused.contains(variable.id) {
        context.remove(variable)
      } else {
        ModelPropertyMigration.migrate(variable, of: name, in: context)
      }
    }
    CodableMigration.migrate(node, in: context)
    context.needsMacroImport = true
  }

  /// The target whose macro `node` already has (`@Observable`: Apple's; `@Trackable`:
  /// ours), or `nil`.
  static func macroTarget(of node: ClassDeclSyntax) -> MigrationTarget? {
    guard let attribute = SyntaxQueries.attribute(in: node.attributes, named: observationMacroNames) else { return nil }
    return SyntaxQueries.name(of: attribute) == MigrationTarget.apple.macroName ? .apple : .tracking
  }

  /// A class that already uses a macro (migrated by an earlier run, or by hand): the
  /// stored properties the macro cannot track are converted when the tool knows how
  /// (`@AppStorage`) and reported otherwise, so that a second run lists again what the
  /// first one left to do.
  private static func reviewMacroClass(_ node: ClassDeclSyntax, target: MigrationTarget, in context: FileContext) {
    let macro = "@\(target.macroName)"
    if target == .apple { CodableMigration.review(node, in: context) }
    for variable in SyntaxQueries.variableMembers(of: node.memberBlock)
    where variable.bindingSpecifier.tokenKind == .keyword(.var) && !SyntaxQueries.isTypeMember(variable.modifiers)
      && variable.bindings.allSatisfy(SyntaxQueries.isStored)
    {
      let attributes = variable.attributes.compactMap { $0.as(AttributeSyntax.self) }
      let names = attributes.map(SyntaxQueries.name(of:))
      guard names.allSatisfy({ !SyntaxQueries.observationPropertyAttributes.contains($0) }) else { continue }
      if let appStorage = SyntaxQueries.attribute(in: variable.attributes, named: ["AppStorage"]) {
        AppStorageMigration.migrate(variable, attribute: appStorage, of: node.name.text, target: target, in: context)
      } else if let wrapper = attributes.first(where: { !SyntaxQueries.nonWrapperAttributes.contains(SyntaxQueries.name(of: $0)) }) {
        let names = variable.bindings.compactMap(SyntaxQueries.boundName(of:)).map { "'\($0)'" }.joined(separator: ", ")
        let tracked = target == .tracking ? " (or write @Tracked in front of the wrapper)" : ""
        context.report(
          .warning, .modelPropertyWrapper, at: wrapper,
          "\(macro) cannot track \(names), which has a property wrapper: mark it @\(target.ignoredAttributeName) if views need not update when it changes\(tracked), or move the value into a tracked stored property")
      } else if let ownership = SyntaxQueries.untrackableModifier(variable.modifiers) {
        context.report(
          .warning, .untrackableProperty, at: variable,
          "\(macro) cannot track a '\(ownership)' property; mark it @\(target.ignoredAttributeName) (views will not update when it changes), or make it a plain stored property")
      }
    }
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
    var ancestor = context.index.superclass(of: node.name.text)
    var seen: Set<String> = [node.name.text]
    while let current = ancestor, seen.insert(current).inserted {
      if context.index.heldBackClasses[current] != nil {
        context.report(
          .note, .unknownType, at: node.name,
          "'\(node.name.text)' inherits from '\(current)', which stays an ObservableObject (see the warning on its declaration): left unchanged")
        return
      }
      ancestor = context.index.superclass(of: current)
    }
    context.report(
      .note, .unknownType, at: node.name,
      "'\(node.name.text)' has @Published properties but no ObservableObject conformance was found among the inputs, so it is left unchanged (its $ publishers keep working); if a superclass in another module makes it an ObservableObject, migrate that module first")
  }
}
