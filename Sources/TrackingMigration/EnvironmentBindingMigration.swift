import SwiftSyntax

/// `$model.title` where `model` was an `@EnvironmentObject`: `@Environment(Model.self)`
/// has no `$` projection. As Apple's migration guide shows, a local `@Bindable`
/// copy gives the bindings back:
///
/// ```swift
/// var body: some View {
///     @Bindable var model = model
///     TextField("Title", text: $model.title)
/// }
/// ```
///
/// The declaration goes first in the body (getter, function or initializer) that
/// uses `$model`, once per body; a single-expression body that is not a result
/// builder gets an explicit `return`.
enum EnvironmentBindingMigration {
  static func migrate(_ node: DeclReferenceExprSyntax, in context: FileContext) {
    guard node.baseName.text.hasPrefix("$"), SiteScanner.dollarKind(of: node, index: context.index) == .environmentBinding
    else { return }
    let property = String(node.baseName.text.dropFirst())
    guard let body = Body(enclosing: node) else {
      context.report(
        .warning, .unknownType, at: node,
        "'\(property)' is now read with @Environment, which has no '$' projection; declare '@Bindable var \(property) = \(property)' in the code that uses '$\(property)'")
      return
    }
    // `self.$model` would name the property's projection, which is gone: use the local's.
    if let member = node.parent?.as(MemberAccessExprSyntax.self), member.declName.id == node.id {
      context.replace(member, with: node.baseName.text)
    }
    if context.claimInsertion(of: property, at: body.insertionOffset) {
      let declaration = "@\(context.index.swiftUIName("Bindable", at: node)) var \(property) = \(property)"
      if body.firstStatementIsOnBraceLine {
        context.insert(declaration + "; ", atOffset: body.insertionOffset)
      } else {
        context.insert(declaration + context.lineBreak + body.indentation(in: context), atOffset: body.insertionOffset)
      }
      // After every declaration inserted here (rank 1), and once per body.
      if let expression = body.implicitReturnExpression,
        context.claimInsertion(of: "return", at: body.insertionOffset)
      {
        context.insert("return ", atOffset: expression.positionAfterSkippingLeadingTrivia.utf8Offset, rank: 1)
      }
    }
    context.converted(node)
  }

  /// The body that receives the local declaration.
  private struct Body {
    var statements: CodeBlockItemListSyntax
    var openingBrace: TokenSyntax
    var isResultBuilder: Bool

    init?(enclosing node: some SyntaxProtocol) {
      var current = node.parent
      while let candidate = current {
        if let accessor = candidate.as(AccessorDeclSyntax.self), let body = accessor.body {
          guard accessor.accessorSpecifier.tokenKind == .keyword(.get) else { return nil }
          self.init(body.statements, body.leftBrace, builder: Self.isBuilder(accessor.parent?.parent?.parent))
          return
        }
        if let block = candidate.as(AccessorBlockSyntax.self), case .getter(let statements) = block.accessors {
          self.init(statements, block.leftBrace, builder: Self.isBuilder(block.parent))
          return
        }
        if let function = candidate.as(FunctionDeclSyntax.self), let body = function.body {
          self.init(body.statements, body.leftBrace, builder: Self.isBuilder(Syntax(function)))
          return
        }
        if let initializer = candidate.as(InitializerDeclSyntax.self), let body = initializer.body {
          self.init(body.statements, body.leftBrace, builder: false)
          return
        }
        if candidate.is(MemberBlockSyntax.self) { return nil }
        current = candidate.parent
      }
      return nil
    }

    private init(_ statements: CodeBlockItemListSyntax, _ brace: TokenSyntax, builder: Bool) {
      self.statements = statements
      self.openingBrace = brace
      self.isResultBuilder = builder
    }

    /// SwiftUI's `body` requirements are view builders; so is anything marked with a
    /// `…Builder` attribute.
    private static func isBuilder(_ declaration: Syntax?) -> Bool {
      guard let declaration else { return false }
      var attributes: AttributeListSyntax?
      var name = ""
      if let function = declaration.as(FunctionDeclSyntax.self) {
        attributes = function.attributes
        name = function.name.text
      } else if let binding = declaration.as(PatternBindingSyntax.self),
        let variable = binding.parent?.parent?.as(VariableDeclSyntax.self)
      {
        attributes = variable.attributes
        name = SyntaxQueries.boundName(of: binding) ?? ""
      }
      if name == "body" { return true }
      return attributes?.contains { element in
        guard case .attribute(let attribute) = element else { return false }
        return SyntaxQueries.name(of: attribute).hasSuffix("Builder")
      } ?? false
    }

    var insertionOffset: Int {
      statements.first?.positionAfterSkippingLeadingTrivia.utf8Offset ?? openingBrace.endPositionBeforeTrailingTrivia.utf8Offset
    }

    var firstStatementIsOnBraceLine: Bool {
      guard let first = statements.first else { return true }
      return !(openingBrace.trailingTrivia.contains { $0.isNewline } || first.leadingTrivia.contains { $0.isNewline })
    }

    func indentation(in context: FileContext) -> String {
      context.indentation(ofLineAt: insertionOffset)
    }

    /// The expression of a single-expression body that returns it implicitly.
    var implicitReturnExpression: ExprSyntax? {
      guard !isResultBuilder, statements.count == 1, let only = statements.first?.item.as(ExprSyntax.self) else {
        return nil
      }
      return only
    }
  }
}
