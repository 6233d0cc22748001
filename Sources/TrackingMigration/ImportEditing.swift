import SwiftSyntax

/// Adds the import that makes the target's macro visible, and any other module the
/// rewritten code needs (`TrackingCombine` for key-path publishers), if missing.
///
/// Existing imports are never removed — even `import Combine`, which may still
/// be used elsewhere in the file. The new import goes on its own line after
/// the last top-level import, or before the first statement if there is none
/// (after any header comment).
enum ImportEditing {
  static func addMacroImportIfNeeded(to tree: SourceFileSyntax, in context: FileContext) {
    let imports = tree.statements.compactMap { $0.item.as(ImportDeclSyntax.self) }
    let imported = Set(imports.compactMap { $0.path.first?.name.text })
    var modules: [String] = []
    if context.needsMacroImport, imported.isDisjoint(with: context.target.satisfyingImports) {
      modules.append(context.target.moduleName)
    }
    modules += context.extraImports.subtracting(imported).sorted()
    guard !modules.isEmpty else { return }
    let line = modules.map { "import \($0)" }.joined(separator: context.lineBreak)
    if let last = imports.last {
      context.insert(context.lineBreak + line, atOffset: last.endPosition.utf8Offset)
    } else if let first = tree.statements.first {
      context.insert(line + context.lineBreak + context.lineBreak, atOffset: insertionOffset(before: first), rank: -1)
    }
  }

  /// Where to put the first import of a file without imports: after the last
  /// blank line of the leading comments (so a file header stays first), or at
  /// the very start (so a doc comment stays attached to its declaration).
  private static func insertionOffset(before statement: CodeBlockItemSyntax) -> Int {
    var offset = statement.position.utf8Offset
    var result = offset
    for piece in statement.leadingTrivia {
      offset += piece.sourceLength.utf8Length
      switch piece {
      case .newlines(let count) where count >= 2, .carriageReturnLineFeeds(let count) where count >= 2:
        result = offset
      default:
        break
      }
    }
    return result
  }
}
