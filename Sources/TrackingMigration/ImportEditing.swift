import SwiftSyntax

/// Adds the import that makes the target's macro visible, if missing.
///
/// Existing imports are never removed — even `import Combine`, which may still
/// be used elsewhere in the file. The new import goes on its own line after
/// the last top-level import, or before the first statement if there is none
/// (after any header comment).
enum ImportEditing {
  static func addMacroImportIfNeeded(to tree: SourceFileSyntax, in context: FileContext) {
    guard context.needsMacroImport else { return }
    let imports = tree.statements.compactMap { $0.item.as(ImportDeclSyntax.self) }
    let imported = Set(imports.compactMap { $0.path.first?.name.text })
    guard imported.isDisjoint(with: context.target.satisfyingImports) else { return }
    let line = "import \(context.target.moduleName)"
    if let last = imports.last {
      context.insert("\n" + line, atOffset: last.endPosition.utf8Offset)
    } else if let first = tree.statements.first {
      context.insert(line + "\n\n", before: first)
    }
  }
}
