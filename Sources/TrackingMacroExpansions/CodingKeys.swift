import SwiftSyntax
import SwiftSyntaxBuilder

/// The coding keys `@Trackable` and `@TrackedState` generate for a `Codable` type.
extension DeclGroupSyntax {
  /// Coding keys under the properties' own names, for types that declare a Codable
  /// conformance and no `CodingKeys` of their own. Tracked properties are stored as
  /// `_name`; the key maps that storage back to `name`. The registrar is left out.
  /// Members inside `#if` get their keys inside the same `#if`.
  var generatedCodingKeys: DeclSyntax? {
    let codable = ["Codable", "Encodable", "Decodable"].contains { inherits($0) }
    guard codable, !declaresType(named: "CodingKeys") else { return nil }
    let numbered = Set(numberedPropertyNames)
    let cases = Self.codingKeyCases(memberBlock.members, numbered: numbered)
    guard !cases.isEmpty else { return nil }
    return """
      private enum CodingKeys: String, CodingKey {
        \(raw: cases.joined(separator: "\n"))
      }
      """
  }

  private static func codingKeyCases(_ members: MemberBlockItemListSyntax, numbered: Set<String>) -> [String] {
    members.flatMap { member -> [String] in
      if let variable = member.decl.as(VariableDeclSyntax.self) {
        guard variable.isStoredInstanceProperty, let name = variable.singleIdentifier?.text else { return [] }
        return [numbered.contains(name) && variable.isTracked ? "case _\(name) = \"\(name)\"" : "case \(name)"]
      }
      guard let ifConfig = member.decl.as(IfConfigDeclSyntax.self) else { return [] }
      var lines: [String] = []
      for clause in ifConfig.clauses {
        let condition = clause.condition.map { " " + $0.trimmedDescription } ?? ""
        lines.append(clause.poundKeyword.text + condition)
        if case .decls(let nested) = clause.elements {
          lines += codingKeyCases(nested, numbered: numbered)
        }
      }
      guard lines.count > ifConfig.clauses.count else { return [] }
      return lines + ["#endif"]
    }
  }
}
