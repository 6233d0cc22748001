import SwiftSyntax

/// Placeholder replaced in the Codable step.
enum CodableMigration {
  static func migrate(_ node: ClassDeclSyntax, in context: FileContext) {}
}
