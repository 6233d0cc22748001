import SwiftSyntax

extension AttributeListSyntax {
  /// The `@available` attributes of the list, including those inside `#if` blocks
  /// (each block keeps only its `@available` attributes; blocks without any are
  /// dropped), for copying onto the extensions a macro generates: an extension of a
  /// type must be at most as available as the type.
  var availability: AttributeListSyntax {
    AttributeListSyntax(compactMap { $0.availability })
  }
}

extension AttributeListSyntax.Element {
  var availability: Self? {
    switch self {
    case .attribute(let attribute):
      return attribute.isAvailability ? self : nil
    case .ifConfigDecl(let ifConfig):
      // Every clause stays (an emptied one keeps the others' conditions exact); the
      // block goes only if no clause had an `@available`.
      var kept = false
      let clauses = ifConfig.clauses.map { clause -> IfConfigClauseSyntax in
        guard case .attributes(let attributes) = clause.elements else { return clause.with(\.elements, nil) }
        let availability = attributes.availability
        kept = kept || !availability.isEmpty
        return clause.with(\.elements, .attributes(availability))
      }
      return kept ? .ifConfigDecl(ifConfig.trimmed.with(\.clauses, IfConfigClauseListSyntax(clauses))) : nil
    }
  }
}

extension AttributeSyntax {
  var isAvailability: Bool { attributeName.trimmedDescription == "available" }
}

extension ExtensionDeclSyntax {
  /// This extension with `attributes` in front, one per line. (Set on the syntax tree
  /// rather than written into the source text: an attribute list that starts with
  /// `#if` would parse as an `#if` declaration of its own.)
  func withAttributes(_ attributes: [AttributeListSyntax.Element]) -> Self {
    guard !attributes.isEmpty else { return self }
    let lines = attributes.map { element -> AttributeListSyntax.Element in
      switch element {
      case .attribute(let attribute): .attribute(attribute.trimmed.with(\.trailingTrivia, .newline))
      case .ifConfigDecl(let ifConfig): .ifConfigDecl(ifConfig.trimmed.with(\.trailingTrivia, .newline))
      }
    }
    return with(\.attributes, AttributeListSyntax(lines))
  }
}
