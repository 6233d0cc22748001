import SwiftSyntax

/// The kinds of `ObservableObject`-era constructs the migration must either convert
/// or report. Every occurrence in the input is a *site*.
public enum SiteKind: String, Sendable, Codable, CaseIterable, Comparable {
  /// `ObservableObject` in the inheritance clause of a class or an extension.
  case conformance = "conformance"
  /// `ObservableObject` refined by a protocol.
  case protocolRefinement = "protocol-refinement"
  /// `ObservableObject` anywhere else: a generic constraint, `some`/`any`, a composition.
  case constraint = "constraint"
  /// A `@Published` attribute.
  case published = "published"
  /// `@AppStorage` on a property of an `ObservableObject` class (it announced changes).
  case propertyWrapper = "property-wrapper"
  /// `@StateObject`, `@ObservedObject` or `@EnvironmentObject`.
  case wrapper = "wrapper"
  /// A call to `environmentObject(_:)`.
  case environmentObject = "environment-object"
  /// `StateObject(wrappedValue:)`, `ObservedObject(wrappedValue:)`, `EnvironmentObject()`,
  /// `Published(initialValue:)`, or `_x = .init(…)` for such a property.
  case wrapperInit = "wrapper-init"
  /// `$x` where `x` is a `@Published` property (its Combine publisher), or the
  /// `Published<T>` type.
  case publisher = "publisher"
  /// `objectWillChange`.
  case objectWillChange = "object-will-change"
  /// `$x` where `x` is an `@EnvironmentObject` (a binding to the object's properties).
  case environmentBinding = "environment-binding"
  /// `model.$x` where `x` is an `@AppStorage` property of a model that becomes
  /// computed (a `Binding` made by the wrapper).
  case storageBinding = "storage-binding"

  /// A few words for messages.
  var description: String {
    switch self {
    case .conformance: "ObservableObject conformance"
    case .protocolRefinement: "protocol refining ObservableObject"
    case .constraint: "ObservableObject constraint"
    case .published: "@Published property"
    case .propertyWrapper: "property wrapper in an ObservableObject"
    case .wrapper: "ObservableObject property wrapper"
    case .environmentObject: "environmentObject(_:) call"
    case .wrapperInit: "property wrapper initialization"
    case .publisher: "@Published publisher"
    case .objectWillChange: "objectWillChange use"
    case .environmentBinding: "binding through an @EnvironmentObject"
    case .storageBinding: "binding to an @AppStorage property of a model"
    }
  }

  public static func < (lhs: SiteKind, rhs: SiteKind) -> Bool {
    allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
  }
}

/// One site: what it is and the UTF-8 offset of its first token in the original text.
struct Site: Hashable, Sendable {
  var kind: SiteKind
  var offset: Int
}

/// Finds every site in a parsed file. Rules mark the sites they convert (by the
/// offset of the same node) and report the ones they cannot; ``Migrator`` reports
/// any site left in neither state, so no construct is ever dropped silently.
final class SiteScanner: SyntaxVisitor {
  private let index: ProjectIndex
  private(set) var sites: [Site] = []

  init(index: ProjectIndex) {
    self.index = index
    super.init(viewMode: .sourceAccurate)
  }

  static func sites(in tree: SourceFileSyntax, index: ProjectIndex) -> [Site] {
    let scanner = SiteScanner(index: index)
    scanner.walk(tree)
    return scanner.sites
  }

  private func add(_ kind: SiteKind, _ node: some SyntaxProtocol) {
    sites.append(Site(kind: kind, offset: node.positionAfterSkippingLeadingTrivia.utf8Offset))
  }

  override func visit(_ node: IdentifierTypeSyntax) -> SyntaxVisitorContinueKind {
    if node.parent?.is(AttributeSyntax.self) == true { return .visitChildren }
    switch node.name.text {
    case "ObservableObject": add(Self.kind(ofObservableObjectType: Syntax(node)), node)
    case "Published": add(.publisher, node)
    default: break
    }
    return .visitChildren
  }

  override func visit(_ node: MemberTypeSyntax) -> SyntaxVisitorContinueKind {
    if node.name.text == "ObservableObject" {
      add(Self.kind(ofObservableObjectType: Syntax(node)), node)
      return .skipChildren
    }
    return .visitChildren
  }

  /// Conformance, refinement or other constraint, from where the type is written.
  static func kind(ofObservableObjectType node: Syntax) -> SiteKind {
    guard let inherited = node.parent?.as(InheritedTypeSyntax.self),
      let clause = inherited.parent?.parent?.as(InheritanceClauseSyntax.self),
      let owner = clause.parent
    else { return .constraint }
    if owner.is(ProtocolDeclSyntax.self) { return .protocolRefinement }
    if owner.is(ClassDeclSyntax.self) || owner.is(ExtensionDeclSyntax.self) { return .conformance }
    return .constraint
  }

  override func visit(_ node: AttributeSyntax) -> SyntaxVisitorContinueKind {
    switch SyntaxQueries.name(of: node) {
    case "Published":
      // Outside a migrated class a @Published property keeps working as it is (in a
      // class held back, the class is reported).
      if let owner = SyntaxQueries.enclosingTypeName(of: node), index.isMigrated(owner) || index.heldBackClasses[owner] != nil {
        add(.published, node)
      }
    case "StateObject", "ObservedObject", "EnvironmentObject": add(.wrapper, node)
    case "AppStorage":
      // A static one has no object to announce changes of; an ignored one is the
      // storage of a converted property.
      if let variable = node.parent?.parent?.as(VariableDeclSyntax.self), SyntaxQueries.isMember(variable),
        !SyntaxQueries.isTypeMember(variable.modifiers),
        SyntaxQueries.attribute(in: variable.attributes, named: SyntaxQueries.observationPropertyAttributes) == nil,
        let owner = SyntaxQueries.enclosingTypeName(of: variable), index.isMigrated(owner) || index.macroObservableClasses.contains(owner)
      {
        add(.propertyWrapper, node)
      }
    default: break
    }
    return .visitChildren
  }

  override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
    if let name = Self.environmentObjectName(calledBy: node) {
      add(.environmentObject, name)
    } else if Self.isWrapperInitializer(node, index: index) {
      add(.wrapperInit, node)
    }
    return .visitChildren
  }

  /// The `environmentObject` of `x.environmentObject(…)`, or of `environmentObject(…)`
  /// called on an implicit `self` (in a `View` extension or method).
  static func environmentObjectName(calledBy call: FunctionCallExprSyntax) -> DeclReferenceExprSyntax? {
    let name = call.calledExpression.as(MemberAccessExprSyntax.self)?.declName
      ?? call.calledExpression.as(DeclReferenceExprSyntax.self)
    return name?.baseName.text == "environmentObject" ? name : nil
  }

  /// The wrappers whose explicit initialization is a site.
  static let initializedWrappers: Set<String> = ["StateObject", "ObservedObject", "EnvironmentObject", "Published"]

  /// `StateObject(…)` and friends, or `_x = .init(…)` where `x` has such a wrapper.
  static func isWrapperInitializer(_ call: FunctionCallExprSyntax, index: ProjectIndex) -> Bool {
    if let name = SyntaxQueries.wrapperTypeName(calledBy: call) { return initializedWrappers.contains(name) }
    guard let member = call.calledExpression.as(MemberAccessExprSyntax.self), member.base == nil,
      member.declName.baseName.text == "init",
      let property = WrapperAssignment.backingProperty(assignedBy: call),
      let owner = SyntaxQueries.enclosingTypeName(of: call),
      let wrapper = index.wrapper(of: property, in: owner)
    else { return false }
    return initializedWrappers.contains(wrapper)
  }

  override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
    let name = node.baseName.text
    let member = node.parent?.as(MemberAccessExprSyntax.self)
    let isMemberName = member?.declName.id == node.id
    if isMemberName, member?.base == nil { return .visitChildren }  // `.objectWillChange`: an implicit member.
    if name == "objectWillChange" {
      add(.objectWillChange, node)
      return .visitChildren
    }
    guard name.hasPrefix("$"), name.count > 1, let kind = Self.dollarKind(of: node, index: index) else {
      return .visitChildren
    }
    add(kind, node)
    return .visitChildren
  }

  /// Whether `$x` is a publisher of a `@Published` property or a binding through an
  /// `@EnvironmentObject` (other `$x` projections keep working after migration).
  static func dollarKind(of node: DeclReferenceExprSyntax, index: ProjectIndex) -> SiteKind? {
    if StorageBindingMigration.resolution(of: node, index: index) != nil { return .storageBinding }
    let property = String(node.baseName.text.dropFirst())
    let member = node.parent?.as(MemberAccessExprSyntax.self)
    let base = member?.declName.id == node.id ? member?.base : nil
    let owner = SyntaxQueries.enclosingTypeName(of: node)
    let isSelfBased = base == nil || base?.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self)
    if isSelfBased, let owner, index.wrapper(of: property, in: owner) == "EnvironmentObject" {
      // Only an object whose wrapper becomes @Environment loses its `$` projection.
      let type = index.propertyType(property, of: owner)
      return type.map(index.observableTypes.contains) == true ? .environmentBinding : nil
    }
    if let base, !isSelfBased {
      let type = ExpressionTypeResolver.typeName(of: base, index: index)
      // Left over from an earlier run (or written by hand): macro classes have no `$x`.
      if let type, index.lacksProjection(property, in: type) { return .publisher }
      if type == nil, index.lacksProjectionOnUnknownObject(property) { return .publisher }
      guard index.allPublishedProperties.contains(property) else { return nil }
      // A base of a known type that is not migrated keeps its publisher.
      if let type, !index.isMigrated(type) { return nil }
      return .publisher
    }
    guard let owner else { return nil }
    if index.isMigrated(owner) {
      return index.publishedProperties(visibleIn: owner).contains(property) ? .publisher : nil
    }
    return index.lacksProjection(property, in: owner) ? .publisher : nil
  }
}
