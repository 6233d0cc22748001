import SwiftSyntax

/// Visits one parsed file and records every migration edit and finding.
final class FileMigrator: SyntaxVisitor {
  private let context: FileContext

  init(context: FileContext) {
    self.context = context
    super.init(viewMode: .sourceAccurate)
  }

  /// Runs the rewrite rules over `tree`; results accumulate in the context.
  static func run(on tree: SourceFileSyntax, context: FileContext) {
    FileMigrator(context: context).walk(tree)
    ImportEditing.addMacroImportIfNeeded(to: tree, in: context)
  }

  override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
    ModelMigration.migrate(node, in: context)
    return .visitChildren
  }

  override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
    CodableMigration.migrate(keys: node, in: context)
    return .visitChildren
  }

  override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
    ExtensionConformanceMigration.migrate(node, in: context)
    return .visitChildren
  }

  override func visit(_ node: IdentifierTypeSyntax) -> SyntaxVisitorContinueKind {
    if node.parent?.is(AttributeSyntax.self) != true { ConstraintMigration.migrate(TypeSyntax(node), in: context) }
    PublisherMigration.migrate(node, in: context)
    return .visitChildren
  }

  override func visit(_ node: MemberTypeSyntax) -> SyntaxVisitorContinueKind {
    ConstraintMigration.migrate(TypeSyntax(node), in: context)
    return .visitChildren
  }

  override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
    ViewMigration.migrate(node, in: context)
    return .visitChildren
  }

  override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
    ViewMigration.migrate(node, in: context)
    if SiteScanner.isWrapperInitializer(node, index: context.index) {
      WrapperAssignment.migrate(node, in: context)
    } else {
      StateCreation.check(stateInitialization: node, in: context)
    }
    return .visitChildren
  }

  override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
    ObjectWillChangeMigration.migrate(node, in: context)
    EnvironmentBindingMigration.migrate(node, in: context)
    PublisherMigration.migrate(node, in: context)
    StorageBindingMigration.migrate(node, in: context)
    return .visitChildren
  }
}
