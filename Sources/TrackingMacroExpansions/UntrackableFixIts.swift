import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder

/// The error `@Trackable` reports for a stored `var` it cannot track, and its fix-its.
extension TrackableMacro {
  /// The error for a property that cannot be tracked, with its fix-its: for a `lazy
  /// var` with a type and an initial value, the rewrite to `@TrackedLazy` with a method
  /// computing the first value; always `@TrackingIgnored`.
  static func untrackableDiagnostic(
    _ variable: VariableDeclSyntax, _ reason: UntrackableReason, in classDecl: ClassDeclSyntax
  ) -> Diagnostic {
    let name = variable.bindings.first?.pattern.trimmedDescription ?? "?"
    var fixIts: [FixIt] = []
    if reason == .lazy, let rewrite = trackedLazyRewrite(variable, className: classDecl.name.text) {
      fixIts.append(
        FixIt(
          message: UseTrackedLazyFixIt(method: rewrite.method),
          changes: [.replace(oldNode: Syntax(variable), newNode: Syntax(rewrite.replacement))]))
    }
    fixIts.append(
      FixIt(
        message: AddIgnoredFixIt(),
        changes: [.replace(oldNode: Syntax(variable), newNode: Syntax(ignoring(variable)))]))
    return Diagnostic(
      node: variable,
      message: TrackingMessage.cannotTrack(reason.id, property: name, reason: reason.text(inClass: true)),
      fixIts: fixIts)
  }

  /// `variable` with `@TrackingIgnored` in front, for the fix-it.
  static func ignoring(_ variable: VariableDeclSyntax) -> VariableDeclSyntax {
    var copy = variable
    let attribute = AttributeSyntax(
      atSign: .atSignToken(leadingTrivia: variable.leadingTrivia),
      attributeName: IdentifierTypeSyntax(name: .identifier(Names.ignoredMacro)),
      trailingTrivia: .space)
    copy.leadingTrivia = []
    copy.attributes = [.attribute(attribute)] + copy.attributes
    return copy
  }

  /// `lazy var thumbnail: Image = render()` becomes
  /// `@TrackedLazy(Model.initialThumbnail) var thumbnail: Image` followed by
  /// `private func initialThumbnail() -> Image { render() }`: the method body is an
  /// instance context, so the initial-value expression keeps its meaning (implicit
  /// `self` included). `nil` without a type annotation (the method needs a return
  /// type) or without an initial value.
  static func trackedLazyRewrite(
    _ variable: VariableDeclSyntax, className: String
  ) -> (method: String, replacement: MemberBlockItemListSyntax)? {
    guard let binding = variable.bindings.first, let name = variable.singleIdentifier?.text,
      let type = binding.typeAnnotation?.type.trimmed, let initializer = binding.initializer?.value.trimmed
    else { return nil }
    let method = "initial" + name.prefix(1).uppercased() + name.dropFirst()
    var property = variable.trimmed
    property.modifiers = property.modifiers.filter { $0.name.tokenKind != .keyword(.lazy) }
    property.bindings = [binding.trimmed.with(\.initializer, nil).with(\.typeAnnotation, binding.typeAnnotation?.trimmed)]
    let attribute: AttributeSyntax = "@\(raw: Names.lazyWrapper)(\(raw: className).\(raw: method))"
    property.attributes = [.attribute(attribute.with(\.trailingTrivia, .space))] + property.attributes
    property.leadingTrivia = variable.leadingTrivia
    let function: DeclSyntax = "private func \(raw: method)() -> \(type) { \(initializer) }"
    let list = MemberBlockItemListSyntax([
      MemberBlockItemSyntax(decl: property),
      MemberBlockItemSyntax(
        decl: function
          .with(\.leadingTrivia, .newline + variable.leadingTrivia.indentation)
          .with(\.trailingTrivia, variable.trailingTrivia)),
    ])
    return (method, list)
  }
}

extension Trivia {
  /// The spaces and tabs after the last newline: a line's indentation.
  var indentation: Trivia {
    var pieces: [TriviaPiece] = []
    for piece in self {
      switch piece {
      case .spaces, .tabs: pieces.append(piece)
      case .newlines, .carriageReturns, .carriageReturnLineFeeds: pieces = []
      default: continue
      }
    }
    return Trivia(pieces: pieces)
  }
}
