import SwiftSyntax
import SwiftSyntaxBuilder

/// The members through which a `StateStore` compares, claims and re-identifies state
/// values: `_$reportChanges(from:into:)`, `_$claim(for:)` and `_$reidentify(for:)`.
/// A struct compares its tracked fields one by one (under the same `#if` as their
/// declarations); an enum compares the payloads of equal cases.
enum StateChangeMembers {
  // MARK: Structs

  /// The three members for a struct, as declarations of its body (they read the
  /// fields' private storage).
  static func forStruct(_ declaration: some DeclGroupSyntax) -> [DeclSyntax] {
    let access = declaration.accessPrefix
    let registrar = Names.state.registrarVariable
    let changes = Names.state.qualifiedChanges
    let owner = Names.state.qualifiedOwner
    let ids = declaration.numberedPropertyNames

    // An `unowned` field is not loaded (its object may be gone): compared by its stamps.
    // `@TrackedEquality(.always)`: by stamps too (every write is a change).
    let compared = fieldLines(declaration.memberBlock.members, ids: ids) { variable, id, name in
      switch (variable.isUnowned, EqualityRuleSyntax(of: variable)) {
      case (true, _), (_, .always?): "changes.field(\(id), of: fields)"
      case (_, .identity?): "changes._fieldByIdentity(\(id), of: fields, old._\(name), _\(name))"
      case (_, .equality?): "changes._fieldByEquality(\(id), of: fields, old._\(name), _\(name))"
      case (_, .using(let isEqual)?): "changes._field(\(id), of: fields, old._\(name), _\(name), unlessEqualBy: \(isEqual))"
      case (_, .by(let key)?): "changes._field(\(id), of: fields, old._\(name), _\(name), unlessSameAt: \(key))"
      case (false, nil): "changes.field(\(id), of: fields, old._\(name), _\(name))"
      }
    }
    // `fields` is unused when no field is compared in some configuration.
    let keepFields = compared.unconditional ? [] : ["_ = fields"]
    let report: DeclSyntax = """
      \(raw: access)func _$reportChanges(from old: Self, into changes: inout \(raw: changes)) -> Bool {
        guard let fields = changes.fields(old.\(raw: registrar), \(raw: registrar)) else {
          return true
        }
        \(raw: (keepFields + compared.lines + ["return false"]).joined(separator: "\n  "))
      }
      """

    // Object references (`weak`, `unowned`) hold no state value to claim.
    let holdsState: (VariableDeclSyntax) -> Bool = { !$0.isWeak && !$0.isUnowned }
    let claimed = fieldLines(declaration.memberBlock.members, ids: ids) { variable, _, name in
      holdsState(variable) ? "if !owner.claim(_\(name)) { return false }" : nil
    }
    let claim: DeclSyntax = """
      \(raw: access)func _$claim(for owner: \(raw: owner)) -> Bool {
        guard \(raw: registrar).claim(for: owner) else {
          return false
        }
        \(raw: (claimed.lines + ["return true"]).joined(separator: "\n  "))
      }
      """

    let reidentified = fieldLines(declaration.memberBlock.members, ids: ids) { variable, _, name in
      holdsState(variable) ? "owner.reidentify(&_\(name))" : nil
    }
    let reidentify: DeclSyntax = """
      \(raw: access)mutating func _$reidentify(for owner: \(raw: owner)) {
        \(raw: (["\(registrar).reidentify(for: owner)"] + reidentified.lines).joined(separator: "\n  "))
      }
      """
    return [report, claim, reidentify]
  }

  /// Lines generated for the tracked fields among `members`, in declaration order; a
  /// field inside `#if` gets its line inside the same clause. `line` gets the field's
  /// declaration, number and name, and may skip it by returning `nil`.
  static func fieldLines(
    _ members: MemberBlockItemListSyntax, ids: [String],
    _ line: (VariableDeclSyntax, Int, String) -> String?
  ) -> (lines: [String], unconditional: Bool) {
    var lines: [String] = []
    var unconditional = false
    for member in members {
      if let variable = member.decl.as(VariableDeclSyntax.self) {
        guard variable.isTracked, let name = variable.singleIdentifier?.text,
          let id = ids.firstIndex(of: name), let text = line(variable, id, name)
        else { continue }
        lines.append(text)
        unconditional = true
      } else if let ifConfig = member.decl.as(IfConfigDeclSyntax.self) {
        // Every configuration gets a line when there is an `#else` and every clause
        // has one.
        var block: [String] = []
        var everyClause = ifConfig.clauses.contains { $0.condition == nil }
        for clause in ifConfig.clauses {
          block.append(clause.poundKeyword.text + (clause.condition.map { " " + $0.trimmedDescription } ?? ""))
          var nested: (lines: [String], unconditional: Bool) = ([], false)
          if case .decls(let members) = clause.elements { nested = fieldLines(members, ids: ids, line) }
          block += nested.lines
          everyClause = everyClause && nested.unconditional
        }
        if block.count > ifConfig.clauses.count { lines += block + ["#endif"] }
        unconditional = unconditional || everyClause
      }
    }
    return (lines, unconditional)
  }

  // MARK: Enums

  /// One case of an enum: its name and its payloads' labels (`nil`: unlabeled).
  struct Case {
    let name: String
    let labels: [String?]
  }

  static func cases(of enumDecl: EnumDeclSyntax) -> [Case] {
    enumDecl.memberBlock.members
      .compactMap { $0.decl.as(EnumCaseDeclSyntax.self) }
      .flatMap(\.elements)
      .map { element in
        let labels = element.parameterClause?.parameters.map { parameter -> String? in
          guard let label = parameter.firstName, label.tokenKind != .wildcard else { return nil }
          return label.text
        }
        return Case(name: element.name.text, labels: labels ?? [])
      }
  }

  /// The three members for an enum, as declarations of its conformance extension.
  static func forEnum(_ enumDecl: EnumDeclSyntax) -> [DeclSyntax] {
    let access = enumDecl.accessPrefix
    let changes = Names.state.qualifiedChanges
    let owner = Names.state.qualifiedOwner
    let cases = cases(of: enumDecl)
    func values(_ prefix: String, _ count: Int) -> [String] { (0..<count).map { "\(prefix)\($0)" } }

    // Same case: compare the payloads (the first that was replaced decides); another
    // case: replaced.
    var report: [String] = []
    if cases.isEmpty {
      report = ["false"]
    } else {
      report.append("switch (old, self) {")
      for c in cases {
        let count = c.labels.count
        if count == 0 {
          report += ["case (.\(c.name), .\(c.name)):", "  return false"]
        } else {
          let old = values("o", count).joined(separator: ", ")
          let new = values("n", count).joined(separator: ", ")
          let compared = (0..<count).map { "changes.payload(o\($0), n\($0))" }.joined(separator: " || ")
          report += ["case let (.\(c.name)(\(old)), .\(c.name)(\(new))):", "  return \(compared)"]
        }
      }
      if cases.count > 1 { report += ["default:", "  return true"] }
      report.append("}")
    }

    var claim: [String] = []
    var reidentify: [String] = []
    if cases.contains(where: { !$0.labels.isEmpty }) {
      claim.append("switch self {")
      reidentify.append("switch self {")
      for c in cases {
        let count = c.labels.count
        if count == 0 {
          claim += ["case .\(c.name):", "  return true"]
          reidentify += ["case .\(c.name):", "  break"]
          continue
        }
        let names = values("v", count)
        claim += [
          "case let .\(c.name)(\(names.joined(separator: ", "))):",
          "  return " + names.map { "owner.claim(\($0))" }.joined(separator: " && "),
        ]
        let arguments = zip(c.labels, names).map { label, name in label.map { "\($0): \(name)" } ?? name }
        reidentify.append("case .\(c.name)(\(names.map { "var \($0)" }.joined(separator: ", "))):")
        reidentify += names.map { "  owner.reidentify(&\($0))" }
        reidentify.append("  self = .\(c.name)(\(arguments.joined(separator: ", ")))")
      }
      claim.append("}")
      reidentify.append("}")
    } else {
      claim = ["true"]
    }

    return [
      """
      \(raw: access)func _$reportChanges(from old: Self, into changes: inout \(raw: changes)) -> Bool {
        \(raw: report.joined(separator: "\n  "))
      }
      """,
      """
      \(raw: access)func _$claim(for owner: \(raw: owner)) -> Bool {
        \(raw: claim.joined(separator: "\n  "))
      }
      """,
      reidentify.isEmpty
        ? "\(raw: access)mutating func _$reidentify(for owner: \(raw: owner)) {}"
        : """
          \(raw: access)mutating func _$reidentify(for owner: \(raw: owner)) {
            \(raw: reidentify.joined(separator: "\n  "))
          }
          """,
    ]
  }
}
