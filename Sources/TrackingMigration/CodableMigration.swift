import SwiftSyntax

/// Synthesized `Codable` under `--target apple`.
///
/// Apple's `@Observable` moves each tracked property's storage to `_name` and adds
/// a stored registrar, so a synthesized `Codable` conformance writes
/// `{"_$observationRegistrar":{},"_name":…}` and reads `_name` keys: the saved
/// format changes silently. `CodingKeys` that name each stored property as it was
/// coded before (`case _name = "name"` for a tracked one) keep the format and
/// leave the registrar out. The tool adds them (or renames the tracked cases of an
/// existing `CodingKeys`) when a migrated class conforms to `Codable`, `Encodable`
/// or `Decodable` and does not write both `init(from:)` and `encode(to:)` itself.
/// `@Trackable` codes the real names, so `--target tracking` needs nothing.
enum CodableMigration {
  static let codingProtocols: Set<String> = ["Codable", "Encodable", "Decodable"]

  /// Whether the class `name` conforms to a coding protocol, in its declaration or
  /// in an extension.
  static func isCodable(_ name: String, index: ProjectIndex) -> Bool {
    let conformances = (index.classConformances[name] ?? []).union(index.extensionConformances[name] ?? [])
    return !conformances.isDisjoint(with: codingProtocols)
  }

  static func migrate(_ node: ClassDeclSyntax, in context: FileContext) {
    let index = context.index
    let name = node.name.text
    guard context.target == .apple, isCodable(name, index: index) else { return }
    // Coding written by hand, in the class or in an extension, in any file.
    let decodesByHand = index.typesDecodingByHand.contains(name)
    let encodesByHand = index.typesEncodingByHand.contains(name)
    guard !(decodesByHand && encodesByHand) else { return }

    let properties = storedProperties(of: node, className: name, in: context)
    if let keys = index.codingKeysByType[name] {
      // Synthesized coding: the cases are renamed where the enum is (`migrate(keys:)`).
      guard decodesByHand || encodesByHand else { return }
      // Hand-written coding names the cases (`forKey: .title`): renaming them would break it.
      let tracked = Set(properties.filter(\.isTracked).map(\.name))
      let coded = keys.filter(tracked.contains).sorted()
      if !coded.isEmpty {
        // At the class: that is where the compiler will say the conformance fails.
        context.report(
          .warning, .codableModel, at: node.name,
          "under @Observable, tracked properties (\(coded.map { "'\($0)'" }.joined(separator: ", "))) are stored as '_name', so the synthesized \(decodesByHand ? "encode(to:)" : "init(from:)") no longer matches these CodingKeys; write it by hand with the keys the hand-written half uses")
      }
      return
    }
    guard !properties.contains(where: \.isLazy) else {
      context.report(
        .warning, .codableModel, at: node.name,
        "'\(name)' uses synthesized Codable: under @Observable it would code '_name' keys and the registrar; write CodingKeys by hand (case _name = \"name\" for each tracked property), since the tool cannot tell how 'lazy' properties were coded")
      return
    }
    let indentation = context.indentation(ofLineAt: node.positionAfterSkippingLeadingTrivia.utf8Offset)
    let unit = context.indentationUnit
    let memberIndentation = node.memberBlock.members.first.map {
      context.indentation(ofLineAt: $0.positionAfterSkippingLeadingTrivia.utf8Offset)
    } ?? indentation + unit
    let cases = properties.map { $0.isTracked ? "case _\($0.name) = \"\($0.name)\"" : "case \($0.name)" }
    let lineBreak = context.lineBreak
    let text =
      lineBreak + memberIndentation + "enum CodingKeys: String, CodingKey {" + lineBreak
      + cases.map { memberIndentation + unit + $0 }.joined(separator: lineBreak) + lineBreak
      + memberIndentation + "}" + lineBreak + indentation
    context.insert(text, atOffset: node.memberBlock.rightBrace.positionAfterSkippingLeadingTrivia.utf8Offset)
    context.report(
      .note, .codableModel, at: node.name,
      "'\(name)' uses synthesized Codable: under @Observable it would code '_name' keys and the registrar, so CodingKeys were added that keep the format it had")
  }

  private struct StoredProperty {
    var name: String
    var isTracked: Bool
    var isLazy: Bool
  }

  /// The stored instance properties synthesis codes, in order, and whether each is
  /// tracked after migration (so its storage is renamed `_name`).
  private static func storedProperties(of node: ClassDeclSyntax, className: String, in context: FileContext) -> [StoredProperty] {
    let announced = context.index.announcedProperties(of: className)
    var result: [StoredProperty] = []
    for variable in SyntaxQueries.variableMembers(of: node.memberBlock)
    where !SyntaxQueries.isTypeMember(variable.modifiers) && variable.bindings.allSatisfy(SyntaxQueries.isStored) {
      let attributes = variable.attributes.compactMap { $0.as(AttributeSyntax.self).map(SyntaxQueries.name(of:)) }
      if attributes.contains("AppStorage") { continue }  // Not Codable; it becomes computed.
      let isVar = variable.bindingSpecifier.tokenKind == .keyword(.var)
      let isLazy = variable.modifiers.contains { $0.name.tokenKind == .keyword(.lazy) }
      let isIgnored = attributes.contains("ObservationIgnored") || attributes.contains("TrackingIgnored")
      for binding in variable.bindings {
        guard let name = SyntaxQueries.boundName(of: binding) else { continue }
        let isTracked =
          isVar && !isLazy && !isIgnored && (attributes.contains("Published") || announced.contains(name))
        result.append(StoredProperty(name: name, isTracked: isTracked, isLazy: isLazy))
      }
    }
    return result
  }

  /// The `CodingKeys` of a migrated class whose coding is synthesized, in the class
  /// or in an extension (in any file): tracked properties' cases get the `_name`
  /// Apple's macro stores them as, with the key they had.
  static func migrate(keys: EnumDeclSyntax, in context: FileContext) {
    let index = context.index
    guard context.target == .apple, keys.name.text == "CodingKeys", SyntaxQueries.isMember(keys),
      let owner = SyntaxQueries.enclosingTypeName(of: keys), index.isMigrated(owner), isCodable(owner, index: index),
      !index.typesDecodingByHand.contains(owner), !index.typesEncodingByHand.contains(owner)
    else { return }
    renameTrackedCases(in: keys, tracked: index.trackedAfterMigration(of: owner), in: context)
  }

  /// A class that already uses `@Observable` (migrated by an earlier run, or by hand)
  /// whose synthesized coding cannot work: the warnings a first run gives, again, so
  /// that a second run still lists them. Nothing is rewritten: the class may already
  /// have saved data in the format it has.
  static func review(_ node: ClassDeclSyntax, in context: FileContext) {
    let index = context.index
    let name = node.name.text
    guard isCodable(name, index: index) else { return }
    let decodesByHand = index.typesDecodingByHand.contains(name)
    let encodesByHand = index.typesEncodingByHand.contains(name)
    guard !(decodesByHand && encodesByHand) else { return }
    let tracked = (index.unwrappedStoredPropertiesByClass[name] ?? [])
      .subtracting(index.ignoredPropertiesByType[name] ?? []).subtracting(index.lazyPropertiesByClass[name] ?? [])
    if let keys = index.codingKeysByType[name] {
      let coded = keys.filter(tracked.contains).sorted()
      guard !coded.isEmpty else { return }
      let list = coded.map { "'\($0)'" }.joined(separator: ", ")
      if decodesByHand || encodesByHand {
        context.report(
          .warning, .codableModel, at: node.name,
          "under @Observable, tracked properties (\(list)) are stored as '_name', so the synthesized \(decodesByHand ? "encode(to:)" : "init(from:)") no longer matches these CodingKeys; write it by hand with the keys the hand-written half uses")
      } else {
        let body = SyntaxQueries.memberDecls(of: node.memberBlock).lazy.compactMap { $0.as(EnumDeclSyntax.self) }
          .first { $0.name.text == "CodingKeys" }
        context.report(
          .warning, .codableModel, at: body.map { Syntax($0.name) } ?? Syntax(node.name),
          "under @Observable, tracked properties are stored as '_name': rename their CodingKeys cases (\(list)) to '_name' with the key they had")
      }
    } else if !(index.lazyPropertiesByClass[name] ?? []).subtracting(index.ignoredPropertiesByType[name] ?? []).isEmpty {
      context.report(
        .warning, .codableModel, at: node.name,
        "'\(name)' uses synthesized Codable: under @Observable it would code '_name' keys and the registrar; write CodingKeys by hand (case _name = \"name\" for each tracked property), since the tool cannot tell how 'lazy' properties were coded")
    }
  }

  /// `case title` → `case _title = "title"` for tracked properties, adding the
  /// `String` raw type if the enum has none.
  private static func renameTrackedCases(in keys: EnumDeclSyntax, tracked: Set<String>, in context: FileContext) {
    let elements = keys.memberBlock.members.compactMap { $0.decl.as(EnumCaseDeclSyntax.self) }.flatMap(\.elements)
    let renamed = elements.filter { tracked.contains($0.name.text) }
    guard !renamed.isEmpty else { return }
    let inherited = keys.inheritanceClause?.inheritedTypes.map { $0.type.trimmedDescription } ?? []
    if inherited.contains(where: { ["Int", "Int8", "Int16", "Int32", "Int64", "UInt"].contains($0) }) {
      context.report(
        .warning, .codableModel, at: keys.name,
        "under @Observable, tracked properties are stored as '_name': rename their CodingKeys cases (\(renamed.map { "'\($0.name.text)'" }.joined(separator: ", "))) to '_name' with the key they had")
      return
    }
    if !inherited.contains("String"), let first = keys.inheritanceClause?.inheritedTypes.first {
      context.insert("String, ", before: first)
    }
    for element in renamed {
      let raw = element.rawValue?.value.trimmedDescription ?? "\"\(element.name.text)\""
      let start = element.name.positionAfterSkippingLeadingTrivia.utf8Offset
      let end = (element.rawValue.map(Syntax.init) ?? Syntax(element.name)).endPositionBeforeTrailingTrivia.utf8Offset
      context.replace(start..<end, with: "_\(element.name.text) = \(raw)")
    }
    context.report(
      .note, .codableModel, at: keys.name,
      "under @Observable, tracked properties are stored as '_name': their CodingKeys cases were renamed, keeping the keys they had")
  }
}
