import SwiftSyntax

/// `@AppStorage` on a property of a model: inside an `ObservableObject` it announced
/// its changes through `objectWillChange`, so views updated. It must stay observable.
///
/// - `--target tracking`: `@Trackable` tracks a property that has a property wrapper
///   (and `$name` keeps working), so the declaration stays as it is.
/// - `--target apple`: `@Observable` cannot track a wrapped property. The value moves
///   to an ignored, private `_name` with the same `@AppStorage`, and `name` becomes a
///   computed property that reports its reads and writes to the class's registrar
///   through the `access(keyPath:)` and `withMutation(keyPath:_:)` members the macro
///   generates, the documented way to make a computed property observable:
///
///   ```swift
///   @ObservationIgnored @AppStorage("volume") private var _volume: Double = 0.5
///   var volume: Double {
///       get { access(keyPath: \.volume); return _volume }
///       set { withMutation(keyPath: \.volume) { _volume = newValue } }
///   }
///   ```
///
///   Writes made to the same defaults key elsewhere (another `@AppStorage`, another
///   process) are not seen, as they were not before. The property needs a type the
///   tool can read (an annotation, or a literal initial value), and no `$name`
///   projection may be in use; otherwise the site is reported.
enum AppStorageMigration {
  static func migrate(_ variable: VariableDeclSyntax, attribute: AttributeSyntax, of className: String, in context: FileContext) {
    guard context.target == .apple else {
      context.converted(attribute)
      return
    }
    guard variable.bindings.count == 1, let binding = variable.bindings.first,
      let name = SyntaxQueries.boundName(of: binding)
    else {
      context.report(.warning, .modelPropertyWrapper, at: attribute, "@AppStorage with several bindings: split the declaration and run again")
      return
    }
    guard let type = binding.typeAnnotation?.type.trimmedDescription ?? binding.initializer.flatMap({ literalType(of: $0.value) }) else {
      context.report(
        .warning, .modelPropertyWrapper, at: attribute,
        "@Observable cannot track '\(name)', which has a property wrapper; add a type annotation and run again, or move it out of the model (it announced changes to views, so marking it @ObservationIgnored would lose updates)")
      return
    }
    if context.index.dollarReferencesByType[className]?.contains(name) == true {
      context.report(
        .warning, .modelPropertyWrapper, at: attribute,
        "@Observable cannot track '\(name)', which has a property wrapper, and '$\(name)' is used; give the model a tracked property backed by UserDefaults by hand (it announced changes to views, so marking it @ObservationIgnored would lose updates)")
      return
    }
    let start = variable.positionAfterSkippingLeadingTrivia.utf8Offset
    let indentation = context.indentation(ofLineAt: start)
    let unit = indentation.hasPrefix("\t") ? "\t" : "    "
    let lineBreak = context.lineBreak
    let otherAttributes = variable.attributes.filter { $0.as(AttributeSyntax.self)?.id != attribute.id }
      .map { $0.trimmedDescription + " " }.joined()
    let modifiers = variable.modifiers.map { $0.trimmedDescription + " " }.joined()
    let storageModifiers = variable.modifiers.filter { !SyntaxQueries.isAccessModifier($0) }.map { $0.trimmedDescription + " " }.joined()
    var storage = "@\(context.target.ignoredAttributeName) \(attribute.trimmedDescription) private \(storageModifiers)var _\(name): \(type)"
    if let initializer = binding.initializer { storage += " " + initializer.trimmedDescription }
    if let accessors = binding.accessorBlock { storage += " " + accessors.trimmedDescription }
    let computed = [
      "\(otherAttributes)\(modifiers)var \(name): \(type) {",
      "\(unit)get {",
      "\(unit)\(unit)access(keyPath: \\.\(name))",
      "\(unit)\(unit)return _\(name)",
      "\(unit)}",
      "\(unit)set {",
      "\(unit)\(unit)withMutation(keyPath: \\.\(name)) { _\(name) = newValue }",
      "\(unit)}",
      "}",
    ]
    let text = ([storage] + computed).joined(separator: lineBreak + indentation)
    context.replace(variable, with: text)
    context.converted(attribute)
    context.report(
      .note, .modelPropertyWrapper, at: attribute,
      "'\(name)' (@AppStorage) announced its changes to views; @Observable cannot track a wrapped property, so it is now a tracked computed property over '_\(name)'")
  }

  /// `Int`, `Double`, `String` or `Bool` for a literal initial value.
  static func literalType(of value: ExprSyntax) -> String? {
    if value.is(IntegerLiteralExprSyntax.self) { return "Int" }
    if value.is(FloatLiteralExprSyntax.self) { return "Double" }
    if value.is(StringLiteralExprSyntax.self) { return "String" }
    if value.is(BooleanLiteralExprSyntax.self) { return "Bool" }
    if let prefix = value.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-" {
      return literalType(of: prefix.expression)
    }
    return nil
  }
}
