import SwiftSyntax

/// Migrates the stored properties of one class that becomes macro-observable.
///
/// - `@Published` is removed: the macro tracks every stored `var`.
/// - `@AppStorage` announced its changes to views: it stays tracked (see
///   ``AppStorageMigration``).
/// - A `var` whose changes were announced by hand (`objectWillChange.send()` in its
///   observer, or in a method that writes it) stays tracked too.
/// - Any other stored `var` did not update views; it gets the ignore attribute so
///   the program keeps its behaviour, with a note.
/// - `var a = 0, b = 1` is split into one declaration per property: the macros
///   accept one variable per declaration.
enum ModelPropertyMigration {
  static func migrate(_ variable: VariableDeclSyntax, of className: String, in context: FileContext) {
    guard variable.bindingSpecifier.tokenKind == .keyword(.var), !SyntaxQueries.isTypeMember(variable.modifiers),
      variable.bindings.allSatisfy(SyntaxQueries.isStored)
    else { return }
    if let published = SyntaxQueries.attribute(in: variable.attributes, named: ["Published"]) {
      if variable.bindings.count > 1 {
        // Not valid with a wrapper, but meant as several published properties.
        PropertySplitting.split(variable, dropping: published, prefixFor: { _ in "" }, in: context)
      } else {
        context.remove(published)
      }
      context.converted(published)
      return
    }
    if let appStorage = SyntaxQueries.attribute(in: variable.attributes, named: ["AppStorage"]) {
      AppStorageMigration.migrate(variable, attribute: appStorage, of: className, target: context.target, in: context)
      return
    }
    let ignoreNames: Set<String> = ["TrackingIgnored", "ObservationIgnored"]
    guard SyntaxQueries.attribute(in: variable.attributes, named: ignoreNames) == nil else { return }
    let names = variable.bindings.map { SyntaxQueries.boundName(of: $0) }
    guard names.allSatisfy({ $0 != nil }) else {
      context.report(
        .warning, .ignoredProperty, at: variable,
        "a tuple pattern cannot be observed or ignored by the macro; declare each property in its own 'var'")
      return
    }
    let announced = context.index.announcedProperties(of: className)
    let attribute = "@\(context.target.ignoredAttributeName) "
    let ignored = names.compactMap { $0 }.filter { !announced.contains($0) }
    let tracked = names.compactMap { $0 }.filter { announced.contains($0) }

    if variable.bindings.count > 1 {
      PropertySplitting.split(variable, prefixFor: { ignored.contains($0) ? attribute : "" }, in: context)
    } else if !ignored.isEmpty {
      context.insert(attribute, before: variable)
    }
    if !ignored.isEmpty {
      let isWrapped = variable.attributes.contains { element in
        guard case .attribute(let attribute) = element else { return false }
        return !SyntaxQueries.nonWrapperAttributes.contains(SyntaxQueries.name(of: attribute))
      }
      let why =
        isWrapped
        ? "has a property wrapper and was not @Published, so its changes did not update views (unless the wrapper announced them, as @AppStorage does: then remove the attribute)"
        : "was not @Published, so changes to it did not update views"
      context.report(
        .note, .ignoredProperty, at: variable,
        "'\(ignored.joined(separator: "', '"))' \(why); marked @\(context.target.ignoredAttributeName) to keep that behaviour (remove the attribute if it should be observed)")
    }
    if !tracked.isEmpty {
      if let ownership = SyntaxQueries.untrackableModifier(variable.modifiers) {
        context.report(
          .warning, .untrackableProperty, at: variable,
          "'\(tracked.joined(separator: "', '"))' was announced with objectWillChange.send(), but @\(context.target.macroName) cannot track a '\(ownership)' property; make it a plain stored property, or mark it @\(context.target.ignoredAttributeName) and announce it another way")
      } else {
        context.report(
          .note, .announcedProperty, at: variable,
          "'\(tracked.joined(separator: "', '"))' was announced with objectWillChange.send(), so views updated when it changed; it stays tracked")
      }
    }
  }
}

/// Rewrites `var a = 0, b: Int = 1` into one declaration per binding.
enum PropertySplitting {
  /// Replaces `variable` with one declaration per binding, each starting with
  /// `prefixFor(name)` and the original attributes and modifiers, on its own line at
  /// the original indentation. A binding without a type or value (`var a, b: Int`)
  /// takes the type of the next binding that has one, as Swift does. `dropped`, an
  /// attribute of the declaration, is left out of every new one.
  static func split(
    _ variable: VariableDeclSyntax, dropping dropped: AttributeSyntax? = nil, prefixFor: (String) -> String,
    in context: FileContext
  ) {
    let start = variable.positionAfterSkippingLeadingTrivia.utf8Offset
    let specifierStart = variable.bindingSpecifier.positionAfterSkippingLeadingTrivia.utf8Offset
    var headBytes = Array(context.bytes[start..<specifierStart])
    if let dropped {
      // The attribute, and the whitespace after it up to the next attribute or modifier.
      let lower = dropped.positionAfterSkippingLeadingTrivia.utf8Offset - start
      var upper = dropped.endPositionBeforeTrailingTrivia.utf8Offset - start
      let whitespace: Set<UInt8> = [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n")]
      while upper < headBytes.count, whitespace.contains(headBytes[upper]) { upper += 1 }
      headBytes.removeSubrange(lower..<upper)
    }
    let head = String(decoding: headBytes, as: UTF8.self)
    let indentation = context.indentation(ofLineAt: start)
    let bindings = Array(variable.bindings)
    var lines: [String] = []
    for (position, binding) in bindings.enumerated() {
      let name = SyntaxQueries.boundName(of: binding) ?? ""
      var text = binding.pattern.trimmedDescription
      if let annotation = binding.typeAnnotation {
        text += annotation.trimmedDescription.hasPrefix(":") ? annotation.trimmedDescription : ": " + annotation.trimmedDescription
      } else if binding.initializer == nil,
        let inherited = bindings[(position + 1)...].first(where: { $0.typeAnnotation != nil })?.typeAnnotation
      {
        text += inherited.trimmedDescription
      }
      if let initializer = binding.initializer { text += " " + initializer.trimmedDescription }
      if let accessors = binding.accessorBlock { text += " " + accessors.trimmedDescription }
      // Comments around the comma (`= 0 /* why */, next`) stay with their property.
      var comments = ""
      if let comma = binding.trailingComma, let last = comma.previousToken(viewMode: .sourceAccurate) {
        comments = [last.trailingTrivia, comma.leadingTrivia, comma.trailingTrivia]
          .map(SyntaxQueries.comments(in:)).filter { !$0.isEmpty }.joined(separator: " ")
      }
      lines.append(prefixFor(name) + head + "var " + text + (comments.isEmpty ? "" : " " + comments))
    }
    context.replace(variable, with: lines.joined(separator: context.lineBreak + indentation))
  }
}
