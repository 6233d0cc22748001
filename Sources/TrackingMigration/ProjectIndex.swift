import SwiftSyntax

/// Facts gathered from *all* input files before any file is rewritten.
///
/// Migration is a whole-program change: a view file only knows that
/// `@ObservedObject var book: Book` refers to a migrated model if the file
/// declaring `class Book: ObservableObject` is part of the same run. Types that
/// are not found here are treated conservatively (left alone and reported),
/// because they may be `ObservableObject`s from another module.
struct ProjectIndex: Sendable {
  /// Classes declaring `ObservableObject` conformance in their own declaration.
  var observableObjectClasses: Set<String> = []
  /// Classes that already use an observation macro (`@Trackable`/`@Observable`),
  /// e.g. from an earlier run on part of the project.
  var macroObservableClasses: Set<String> = []
  /// Direct superclass (first inherited type) of every class, by class name.
  var superclassByClass: [String: String] = [:]
  /// Names of `@Published` properties, by declaring class.
  var publishedPropertiesByClass: [String: Set<String>] = [:]
  /// Identifiers used as `$name` inside each type (including its extensions).
  var dollarReferencesByType: [String: Set<String>] = [:]
  /// Types held in `@State` or `@StateObject` properties anywhere.
  var stateHeldTypes: Set<String> = []
  /// Property name → type name, by declaring type (annotation or `T()` initializer).
  var propertyTypesByType: [String: [String: String]] = [:]
  /// Types declared (or extended) as conforming to SwiftUI's `View` or `Scene`,
  /// whose code runs under SwiftUI's observation tracking.
  var viewTypes: Set<String> = []

  /// Classes that inherit, directly or not, from a class in
  /// ``observableObjectClasses`` without declaring the conformance themselves.
  var migratedSubclasses: Set<String> {
    var result: Set<String> = []
    var changed = true
    while changed {
      changed = false
      for (name, superclass) in superclassByClass
      where !result.contains(name) && !observableObjectClasses.contains(name)
        && (observableObjectClasses.contains(superclass) || result.contains(superclass))
      {
        result.insert(name)
        changed = true
      }
    }
    return result
  }

  /// Every class that is (or becomes) macro-observable after this run.
  var observableTypes: Set<String> {
    observableObjectClasses.union(migratedSubclasses).union(macroObservableClasses)
  }

  /// Every formerly `@Published` property name in the project.
  var allPublishedProperties: Set<String> {
    publishedPropertiesByClass.values.reduce(into: []) { $0.formUnion($1) }
  }

  /// `@Published` properties visible in `className`, including inherited ones.
  func publishedProperties(visibleIn className: String) -> Set<String> {
    var result: Set<String> = []
    var current: String? = className
    var visited: Set<String> = []
    while let name = current, visited.insert(name).inserted {
      result.formUnion(publishedPropertiesByClass[name] ?? [])
      current = superclassByClass[name]
    }
    return result
  }

  /// Adds the facts of one parsed file.
  mutating func add(_ tree: SourceFileSyntax) {
    let collector = IndexCollector(viewMode: .sourceAccurate)
    collector.walk(tree)
    observableObjectClasses.formUnion(collector.index.observableObjectClasses)
    macroObservableClasses.formUnion(collector.index.macroObservableClasses)
    superclassByClass.merge(collector.index.superclassByClass) { old, _ in old }
    publishedPropertiesByClass.merge(collector.index.publishedPropertiesByClass) { $0.union($1) }
    dollarReferencesByType.merge(collector.index.dollarReferencesByType) { $0.union($1) }
    stateHeldTypes.formUnion(collector.index.stateHeldTypes)
    viewTypes.formUnion(collector.index.viewTypes)
    propertyTypesByType.merge(collector.index.propertyTypesByType) { old, new in
      old.merging(new) { first, _ in first }
    }
  }
}

/// Walks one file and records what ``ProjectIndex`` needs.
private final class IndexCollector: SyntaxVisitor {
  var index = ProjectIndex()

  override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
    let name = node.name.text
    let inherited = node.inheritanceClause?.inheritedTypes ?? []
    if inherited.contains(where: { SyntaxQueries.isObservableObject($0.type) }) {
      index.observableObjectClasses.insert(name)
    }
    if let first = inherited.first, !SyntaxQueries.isObservableObject(first.type),
      let superclass = SyntaxQueries.simpleName(of: first.type)
    {
      index.superclassByClass[name] = superclass
    }
    if SyntaxQueries.attribute(in: node.attributes, named: observationMacroNames) != nil {
      index.macroObservableClasses.insert(name)
    }
    for member in node.memberBlock.members {
      guard let variable = member.decl.as(VariableDeclSyntax.self),
        SyntaxQueries.attribute(in: variable.attributes, named: ["Published"]) != nil
      else { continue }
      for binding in variable.bindings {
        if let property = SyntaxQueries.boundName(of: binding) {
          index.publishedPropertiesByClass[name, default: []].insert(property)
        }
      }
    }
    return .visitChildren
  }

  override func visitPost(_ node: StructDeclSyntax) { recordView(node.name.text, node.inheritanceClause) }
  override func visitPost(_ node: ClassDeclSyntax) { recordView(node.name.text, node.inheritanceClause) }
  override func visitPost(_ node: EnumDeclSyntax) { recordView(node.name.text, node.inheritanceClause) }
  override func visitPost(_ node: ExtensionDeclSyntax) {
    if let name = SyntaxQueries.simpleName(of: node.extendedType) { recordView(name, node.inheritanceClause) }
  }

  private func recordView(_ name: String, _ clause: InheritanceClauseSyntax?) {
    let viewProtocols: Set<String> = ["View", "Scene"]
    if clause?.inheritedTypes.contains(where: { viewProtocols.contains(SyntaxQueries.simpleName(of: $0.type) ?? "") }) == true {
      index.viewTypes.insert(name)
    }
  }

  override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
    let holdsState =
      SyntaxQueries.attribute(in: node.attributes, named: ["State", "StateObject"]) != nil
    let owner = SyntaxQueries.enclosingTypeName(of: node)
    for binding in node.bindings {
      guard let type = SyntaxQueries.declaredTypeName(of: binding) else { continue }
      if holdsState { index.stateHeldTypes.insert(type) }
      if let owner, let property = SyntaxQueries.boundName(of: binding),
        isMemberOfType(node)
      {
        index.propertyTypesByType[owner, default: [:]][property] = type
      }
    }
    return .visitChildren
  }

  override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
    let text = node.baseName.text
    guard text.hasPrefix("$"), text.count > 1,
      let first = text.dropFirst().first, !first.isNumber,
      let owner = SyntaxQueries.enclosingTypeName(of: node)
    else { return .visitChildren }
    index.dollarReferencesByType[owner, default: []].insert(String(text.dropFirst()))
    return .visitChildren
  }

  /// Whether a variable is a member of a type (not a local in a function).
  private func isMemberOfType(_ node: VariableDeclSyntax) -> Bool {
    node.parent?.is(MemberBlockItemSyntax.self) ?? false
  }
}
