import SwiftSyntax

/// Walks one file and records what ``ProjectIndex`` needs.
final class IndexCollector: SyntaxVisitor {
  var index = ProjectIndex()

  /// The wrappers whose properties the migration treats specially.
  static let recordedWrappers: Set<String> = [
    "StateObject", "ObservedObject", "EnvironmentObject", "Published", "AppStorage", "State",
  ]

  // MARK: Type declarations

  override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
    let name = node.name.text
    let inherited = (node.inheritanceClause?.inheritedTypes ?? []).compactMap { SyntaxQueries.simpleName(of: $0.type) }
    if index.classInheritance[name] == nil { index.classInheritance[name] = inherited }
    index.classConformances[name, default: []].formUnion(inherited)
    if node.parent?.is(MemberBlockItemSyntax.self) == true,
      node.modifiers.contains(where: { $0.name.tokenKind == .keyword(.private) && $0.detail == nil }),
      let outer = SyntaxQueries.enclosingTypeName(of: node)
    {
      index.privateNestedClasses[name] = outer
    }
    if SyntaxQueries.attribute(in: node.attributes, named: observationMacroNames) != nil {
      index.macroObservableClasses.insert(name)
    }
    // Macros may add members the tool cannot see (an `@Published var state`, say).
    let unknown = node.attributes.compactMap { $0.as(AttributeSyntax.self) }
      .filter { !SyntaxQueries.knownClassAttributes.contains(SyntaxQueries.name(of: $0)) }
    if let first = unknown.first {
      index.unknownClassAttributes[name, default: []].append("@" + SyntaxQueries.name(of: first))
    } else if let expansion = SyntaxQueries.memberDecls(of: node.memberBlock).lazy.compactMap({ $0.as(MacroExpansionDeclSyntax.self) }).first {
      index.unknownClassAttributes[name, default: []].append("#" + expansion.macroName.text)
    }
    for variable in SyntaxQueries.variableMembers(of: node.memberBlock) {
      let isPublished = SyntaxQueries.attribute(in: variable.attributes, named: ["Published"]) != nil
      let isStoredVar =
        variable.bindingSpecifier.tokenKind == .keyword(.var) && !SyntaxQueries.isTypeMember(variable.modifiers)
        && variable.bindings.allSatisfy(SyntaxQueries.isStored)
      let isLazy = variable.modifiers.contains { $0.name.tokenKind == .keyword(.lazy) }
      let isIgnored = SyntaxQueries.attribute(in: variable.attributes, named: SyntaxQueries.observationPropertyAttributes) != nil
      let isWrapped = variable.attributes.contains { element in
        guard case .attribute(let attribute) = element else { return false }
        let attributeName = SyntaxQueries.name(of: attribute)
        return !SyntaxQueries.nonWrapperAttributes.contains(attributeName)
          && !["TrackingIgnored", "ObservationIgnored"].contains(attributeName)
      }
      let isAppStorage = SyntaxQueries.attribute(in: variable.attributes, named: ["AppStorage"]) != nil
      for binding in variable.bindings {
        guard let property = SyntaxQueries.boundName(of: binding) else { continue }
        if isLazy { index.lazyPropertiesByClass[name, default: []].insert(property) }
        if isStoredVar, !isWrapped { index.unwrappedStoredPropertiesByClass[name, default: []].insert(property) }
        if isAppStorage, isStoredVar, !isIgnored {
          index.appStoragePropertiesByClass[name, default: [:]][property] = binding
        }
        if isPublished { index.publishedPropertiesByClass[name, default: []].insert(property) }
        if isPublished, binding.initializer != nil { index.initializedPublishedByClass[name, default: []].insert(property) }
        if isStoredVar { index.storedPropertiesByClass[name, default: []].insert(property) }
      }
    }
    recordGenericConstraints(of: name, node.genericParameterClause, node.genericWhereClause)
    return .visitChildren
  }

  override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
    recordGenericConstraints(of: node.name.text, node.genericParameterClause, node.genericWhereClause)
    return .visitChildren
  }

  override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind {
    index.declaredTypes.insert(node.name.text)
    let inherited = (node.inheritanceClause?.inheritedTypes ?? []).compactMap { SyntaxQueries.simpleName(of: $0.type) }
    index.protocolInheritance[node.name.text, default: []].append(contentsOf: inherited)
    return .visitChildren
  }

  override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
    if let name = SyntaxQueries.simpleName(of: node.extendedType) {
      let added = (node.inheritanceClause?.inheritedTypes ?? []).compactMap { SyntaxQueries.simpleName(of: $0.type) }
      if !added.isEmpty { index.extensionConformances[name, default: []].formUnion(added) }
    }
    return .visitChildren
  }

  override func visitPost(_ node: MacroDeclSyntax) { index.declaredMacros.insert(node.name.text) }
  override func visitPost(_ node: ActorDeclSyntax) { index.declaredTypes.insert(node.name.text) }
  override func visitPost(_ node: TypeAliasDeclSyntax) { index.declaredTypes.insert(node.name.text) }
  override func visitPost(_ node: AssociatedTypeDeclSyntax) { index.declaredTypes.insert(node.name.text) }
  override func visitPost(_ node: GenericParameterSyntax) { index.declaredTypes.insert(node.name.text) }
  override func visitPost(_ node: StructDeclSyntax) { recordView(node.name.text, node.inheritanceClause) }
  override func visitPost(_ node: ClassDeclSyntax) { recordView(node.name.text, node.inheritanceClause) }
  override func visitPost(_ node: EnumDeclSyntax) { recordView(node.name.text, node.inheritanceClause) }
  override func visitPost(_ node: ExtensionDeclSyntax) {
    if let name = SyntaxQueries.simpleName(of: node.extendedType) { recordView(name, node.inheritanceClause) }
  }

  override func visitPost(_ node: CodeBlockItemSyntax) {
    // A type declared at file scope is visible in its whole module, where it hides a
    // type of the same name from an imported module (SwiftUI's `Environment`).
    guard node.parent?.parent?.is(SourceFileSyntax.self) == true else { return }
    let name: TokenSyntax? =
      if let type = node.item.as(StructDeclSyntax.self) { type.name }
      else if let type = node.item.as(ClassDeclSyntax.self) { type.name }
      else if let type = node.item.as(EnumDeclSyntax.self) { type.name }
      else if let type = node.item.as(ActorDeclSyntax.self) { type.name }
      else if let type = node.item.as(ProtocolDeclSyntax.self) { type.name }
      else if let type = node.item.as(TypeAliasDeclSyntax.self) { type.name }
      else { nil }
    if let name { index.fileScopeTypes.insert(name.text) }
  }

  private func recordView(_ name: String, _ clause: InheritanceClauseSyntax?) {
    index.declaredTypes.insert(name)
    let viewProtocols: Set<String> = ["View", "Scene", "App"]
    if clause?.inheritedTypes.contains(where: { viewProtocols.contains(SyntaxQueries.simpleName(of: $0.type) ?? "") }) == true {
      index.viewTypes.insert(name)
    }
  }

  private func recordGenericConstraints(
    of typeName: String, _ parameters: GenericParameterClauseSyntax?, _ whereClause: GenericWhereClauseSyntax?
  ) {
    for parameter in parameters?.parameters ?? [] {
      guard let constraint = parameter.inheritedType else { continue }
      let names = SyntaxQueries.protocolNames(in: constraint)
      index.genericConstraintsByType[typeName, default: [:]][parameter.name.text, default: []].formUnion(names)
    }
    for requirement in whereClause?.requirements ?? [] {
      guard case .conformanceRequirement(let conformance) = requirement.requirement,
        let parameter = SyntaxQueries.simpleName(of: conformance.leftType)
      else { continue }
      let names = SyntaxQueries.protocolNames(in: conformance.rightType)
      index.genericConstraintsByType[typeName, default: [:]][parameter, default: []].formUnion(names)
    }
  }

  // MARK: Members

  override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
    let wrapper = SyntaxQueries.attribute(in: node.attributes, named: Self.recordedWrappers).map(SyntaxQueries.name(of:))
    let owner = SyntaxQueries.enclosingTypeName(of: node)
    let isMember = SyntaxQueries.isMember(node)
    let isGlobal = node.parent?.parent?.parent?.is(SourceFileSyntax.self) ?? false
    let isStoredInstanceVar =
      node.bindingSpecifier.tokenKind == .keyword(.var) && !SyntaxQueries.isTypeMember(node.modifiers)
      && node.bindings.allSatisfy(SyntaxQueries.isStored)
    let isIgnored = SyntaxQueries.attribute(in: node.attributes, named: ["TrackingIgnored", "ObservationIgnored"]) != nil
    for binding in node.bindings {
      guard let property = SyntaxQueries.boundName(of: binding) else { continue }
      if let owner, isMember, isStoredInstanceVar { index.storedVarsByType[owner, default: []].insert(property) }
      if let owner, isMember, isIgnored { index.ignoredPropertiesByType[owner, default: []].insert(property) }
      if let owner, isMember, let wrapper {
        index.wrappedPropertiesByType[owner, default: [:]][property] = wrapper
      }
      guard let type = SyntaxQueries.declaredTypeName(of: binding) else {
        if let owner, isMember, let value = binding.initializer?.value {
          index.propertyInitializersByType[owner, default: [:]][property] = value
        }
        continue
      }
      if wrapper == "EnvironmentObject" { index.environmentObjectTypes.insert(type) }
      if wrapper == "State" || wrapper == "StateObject", Self.createsValueOnViewInit(binding) {
        index.stateHeldTypes.insert(type)
      }
      if let owner, isMember {
        index.propertyTypesByType[owner, default: [:]][property] = type
      } else if isGlobal {
        index.propertyTypesByType["", default: [:]][property] = type
      }
    }
    return .visitChildren
  }

  /// Whether a `@State`/`@StateObject` binding gets a new value each time its view
  /// is initialized: it has an initial value other than `nil`, or none and a
  /// non-optional type (so the view's initializer must supply one).
  static func createsValueOnViewInit(_ binding: PatternBindingSyntax) -> Bool {
    if let value = binding.initializer?.value {
      return !value.is(NilLiteralExprSyntax.self)
    }
    guard let type = binding.typeAnnotation?.type else { return true }
    return !(type.is(OptionalTypeSyntax.self) || type.is(ImplicitlyUnwrappedOptionalTypeSyntax.self))
  }

  override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
    let owner = SyntaxQueries.enclosingTypeName(of: node)
    // Generic parameters of functions are recorded under the declaring type (or "").
    recordGenericConstraints(of: owner ?? "", node.genericParameterClause, node.genericWhereClause)
    let isMember = SyntaxQueries.isMember(node)
    let generics = Set(node.genericParameterClause?.parameters.map(\.name.text) ?? [])
    if let returnType = node.signature.returnClause?.type,
      let returned = SyntaxQueries.simpleName(of: returnType), generics.contains(returned)
    {
      // `func configure<T>(_ value: T, …) -> T`: the result has its argument's type.
      let parameters = Array(node.signature.parameterClause.parameters)
      if let position = parameters.firstIndex(where: { SyntaxQueries.simpleName(of: $0.type) == returned }) {
        index.passthroughArgumentByFunction[node.name.text] = position
      }
    } else if let returnType = node.signature.returnClause?.type {
      let name = SyntaxQueries.simpleName(of: returnType).map { $0 == "Self" ? (owner ?? $0) : $0 }
      if let name {
        index.functionReturnTypesByType[isMember ? (owner ?? "") : "", default: [:]][node.name.text] = name
      }
    }
    if isMember, let owner, node.name.text == "encode",
      node.signature.parameterClause.parameters.first?.firstName.text == "to"
    {
      index.typesEncodingByHand.insert(owner)
    }
    if isMember, let owner, let body = node.body {
      index.functionFactsByType[owner, default: [:]][node.name.text, default: FunctionFacts()].add(SideEffectFinder.facts(of: body))
    }
    return .visitChildren
  }

  override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
    if let property = WrapperAssignment.backingProperty(assignedBy: node), let owner = SyntaxQueries.enclosingTypeName(of: node) {
      index.assignedWrapperStorageByType[owner, default: []].insert(property)
    }
    return .visitChildren
  }

  override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind {
    if let owner = SyntaxQueries.enclosingTypeName(of: node), let body = node.body {
      index.functionFactsByType[owner, default: [:]]["init", default: FunctionFacts()].add(SideEffectFinder.facts(of: body))
    }
    if SyntaxQueries.isMember(node), let owner = SyntaxQueries.enclosingTypeName(of: node),
      node.signature.parameterClause.parameters.first?.firstName.text == "from"
    {
      index.typesDecodingByHand.insert(owner)
    }
    return .visitChildren
  }

  /// `enum CodingKeys` of a type, in its body or in an extension.
  override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
    if node.name.text == "CodingKeys", SyntaxQueries.isMember(node), let owner = SyntaxQueries.enclosingTypeName(of: node) {
      let cases = node.memberBlock.members.compactMap { $0.decl.as(EnumCaseDeclSyntax.self) }.flatMap(\.elements)
      index.codingKeysByType[owner, default: []].formUnion(cases.map(\.name.text))
    }
    return .visitChildren
  }

  override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
    if let extended = SyntaxQueries.enclosingExtension(of: node).flatMap({ SyntaxQueries.simpleName(of: $0.extendedType) }) {
      index.namesReferencedInExtensions[extended, default: []].insert(node.baseName.text)
    }
    if let announcement = Announcement(node), let owner = SyntaxQueries.enclosingTypeName(of: node) {
      index.announcedNamesByClass[owner, default: []].formUnion(announcement.announcedNames)
    }
    let text = node.baseName.text
    guard text.hasPrefix("$"), text.count > 1,
      let first = text.dropFirst().first, !first.isNumber,
      let owner = SyntaxQueries.enclosingTypeName(of: node)
    else { return .visitChildren }
    index.dollarReferencesByType[owner, default: []].insert(String(text.dropFirst()))
    return .visitChildren
  }
}

/// What one function body does that matters when SwiftUI may run it many times.
struct FunctionFacts: Sendable {
  /// The first side effect found, described (`starts a Task`), if any.
  var sideEffect: String?
  /// Methods of the same type it calls (`load()`, `self.load()`), by base name.
  var calls: Set<String> = []

  mutating func add(_ other: FunctionFacts) {
    if sideEffect == nil { sideEffect = other.sideEffect }
    calls.formUnion(other.calls)
  }
}

/// Finds side effects in a function body: calls that start work that outlives the
/// call (tasks, subscriptions, timers, observation, notification observers).
final class SideEffectFinder: SyntaxVisitor {
  /// Callee base name → what calling it does.
  static let effects: [String: String] = [
    "Task": "starts a Task", "detached": "starts a detached Task",
    "sink": "subscribes to a publisher (sink)", "assign": "subscribes to a publisher (assign)",
    "onReceive": "subscribes to a publisher",
    "observe": "starts observing (observe)", "withTracking": "starts tracking (withTracking)",
    "withCancellableTracking": "starts tracking (withCancellableTracking)",
    "withObservationTracking": "starts observation tracking", "Observations": "starts an Observations sequence",
    "addObserver": "registers a notification observer", "scheduledTimer": "schedules a timer",
    "async": "dispatches work to a queue", "asyncAfter": "dispatches work to a queue",
  ]

  private var facts = FunctionFacts()

  static func facts(of body: CodeBlockSyntax) -> FunctionFacts {
    let finder = SideEffectFinder(viewMode: .sourceAccurate)
    finder.walk(body)
    return finder.facts
  }

  override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
    guard let name = SyntaxQueries.calleeName(of: node) else { return .visitChildren }
    // Observation functions count as free functions only (`observe { }`), not as
    // methods of the same name (KVO's `object.observe(\.key)` ends with its token).
    let isObservation = LintRules.observationStarters.contains(name)
    if facts.sideEffect == nil, let effect = Self.effects[name], !isObservation || LintRules.isCall(node, to: [name]) {
      facts.sideEffect = effect
    }
    let callee = node.calledExpression
    if callee.is(DeclReferenceExprSyntax.self)
      || callee.as(MemberAccessExprSyntax.self)?.base?.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self)
    {
      facts.calls.insert(name)
    }
    return .visitChildren
  }
}
