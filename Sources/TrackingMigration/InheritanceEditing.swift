import SwiftSyntax

/// Removes one entry of an inheritance clause (`: NSObject, ObservableObject`),
/// fixing its comma or the colon, and never a comment: only the type and the
/// punctuation it needs go, so `Identifiable, // why\n ObservableObject` keeps `// why`.
enum InheritanceEditing {
  static func remove(
    at position: InheritedTypeListSyntax.Index,
    from list: InheritedTypeListSyntax,
    clause: InheritanceClauseSyntax,
    in context: FileContext
  ) {
    let element = list[position]
    if list.count == 1 {
      // `class X: ObservableObject {` → `class X {`: the colon goes too.
      removeSpan(from: clause.colon, through: element.type, in: context)
    } else if list.index(after: position) != list.endIndex, let comma = element.trailingComma {
      // First or middle: its own comma goes.
      removeSpan(from: element.type, through: comma, in: context)
    } else if let comma = list[list.index(before: position)].trailingComma {
      // Last: the previous entry's comma goes.
      removeSpan(from: comma, through: element.type, in: context)
    }
  }

  /// Removes `first` through `last` as one range when only whitespace separates
  /// them, or each on its own so that a comment between them stays.
  private static func removeSpan(from first: some SyntaxProtocol, through last: some SyntaxProtocol, in context: FileContext) {
    let start = first.positionAfterSkippingLeadingTrivia.utf8Offset
    let end = last.endPositionBeforeTrailingTrivia.utf8Offset
    let between = first.trailingTrivia.pieces + last.leadingTrivia.pieces
    if between.allSatisfy(\.isWhitespace) {
      context.remove(start..<end)
    } else {
      context.remove(first)
      context.remove(last)
    }
  }
}
