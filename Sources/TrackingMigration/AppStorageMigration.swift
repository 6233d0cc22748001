import SwiftSyntax

/// `@AppStorage` on a property of a model: inside an `ObservableObject` it announced
/// its changes through `objectWillChange`, so views updated. It must stay observable,
/// and neither macro can track a property that has a wrapper (`@Observable` rejects
/// it; `@Trackable` declares the wrapper's `_name` storage a second time, and
/// `@Tracked` over `@AppStorage` would miss its writes, whose setter is `nonmutating`).
///
/// So, for both targets, the value moves to an ignored, private `_name` with the same
/// `@AppStorage`, and `name` becomes a computed property that reports its reads and
/// writes to the class's registrar through the `access(keyPath:)` and
/// `withMutation(keyPath:_:)` members both macros generate, the documented way to
/// make a computed property observable:
///
/// ```swift
/// @ObservationIgnored @AppStorage("volume") private var _volume: Double = 0.5
/// var volume: Double {
///     get { access(keyPath: \.volume); return _volume }
///     set { withMutation(keyPath: \.volume) { _volume = newValue } }
/// }
/// ```
///
/// Writes made to the same defaults key elsewhere (another `@AppStorage`, another
/// process) are not seen, as they were not before. The property needs a type the tool
/// can read (an annotation, or a literal initial value), and no `$name` projection may
/// be used inside the class; otherwise the site is reported. Elsewhere, `model.$name`
/// (a `Binding`) becomes `Bindable(model).name` (see ``StorageBindingMigration``).
///
/// The same applies to a class that already uses a macro (a second run, or code
/// migrated by hand), with that macro's ignore attribute.
enum AppStorageMigration {
  /// Why `name`, an `@AppStorage` property of `className`, cannot be converted, or
  /// `nil` when it can (then ``migrate(_:attribute:of:target:in:)`` converts it).
  static func obstacle(to binding: PatternBindingSyntax, of className: String, index: ProjectIndex) -> Obstacle? {
    guard let variable = binding.parent?.parent?.as(VariableDeclSyntax.self), variable.bindings.count == 1,
      let name = SyntaxQueries.boundName(of: binding)
    else { return .severalBindings }
    guard type(of: binding) != nil else { return .unknownType(name) }
    if index.dollarReferencesByType[className]?.contains(name) == true { return .projectionUsed(name) }
    return nil
  }

  enum Obstacle {
    case severalBindings
    case unknownType(String)
    case projectionUsed(String)
  }

  /// The type written for the property, or that of its literal initial value.
  static func type(of binding: PatternBindingSyntax) -> String? {
    binding.typeAnnotation?.type.trimmedDescription ?? binding.initializer.flatMap({ literalType(of: $0.value) })
  }

  static func migrate(
    _ variable: VariableDeclSyntax, attribute: AttributeSyntax, of className: String, target: MigrationTarget,
    in context: FileContext
  ) {
    let macro = "@\(target.macroName)"
    guard let binding = variable.bindings.first else { return }
    switch obstacle(to: binding, of: className, index: context.index) {
    case .severalBindings:
      context.report(.warning, .modelPropertyWrapper, at: attribute, "@AppStorage with several bindings: split the declaration and run again")
      return
    case .unknownType(let name):
      context.report(
        .warning, .modelPropertyWrapper, at: attribute,
        "\(macro) cannot track '\(name)', which has a property wrapper; add a type annotation and run again, or move it out of the model (it announced changes to views, so marking it @\(target.ignoredAttributeName) would lose updates)")
      return
    case .projectionUsed(let name):
      context.report(
        .warning, .modelPropertyWrapper, at: attribute,
        "\(macro) cannot track '\(name)', which has a property wrapper, and '$\(name)' is used in '\(className)'; give the model a tracked property backed by UserDefaults by hand, or write 'Bindable(self).\(name)' for '$\(name)' and run again (it announced changes to views, so marking it @\(target.ignoredAttributeName) would lose updates)")
      return
    case nil:
      break
    }
    guard let name = SyntaxQueries.boundName(of: binding), let type = type(of: binding) else { return }
    let start = variable.positionAfterSkippingLeadingTrivia.utf8Offset
    let indentation = context.indentation(ofLineAt: start)
    let unit = context.indentationUnit
    let lineBreak = context.lineBreak
    let otherAttributes = variable.attributes.filter { $0.as(AttributeSyntax.self)?.id != attribute.id }
      .map { $0.trimmedDescription + " " }.joined()
    let modifiers = variable.modifiers.map { $0.trimmedDescription + " " }.joined()
    let storageModifiers = variable.modifiers.filter { !SyntaxQueries.isAccessModifier($0) }.map { $0.trimmedDescription + " " }.joined()
    var storage = "@\(target.ignoredAttributeName) \(attribute.trimmedDescription) private \(storageModifiers)var _\(name): \(type)"
    if let initializer = binding.initializer { storage += " " + initializer.trimmedDescription }
    if let accessors = observers(of: binding, in: context) { storage += " " + accessors }
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
      "'\(name)' (@AppStorage) announced its changes to views; \(macro) cannot track a wrapped property, so it is now a tracked computed property over '_\(name)'")
  }

  /// The text of the property's `willSet`/`didSet` block for the storage, without the
  /// `objectWillChange.send()` calls (the computed property announces changes now);
  /// `nil` when nothing else is left.
  private static func observers(of binding: PatternBindingSyntax, in context: FileContext) -> String? {
    guard let block = binding.accessorBlock else { return nil }
    let base = block.positionAfterSkippingLeadingTrivia.utf8Offset
    var edits: [TextEdit] = []
    var remaining = 0
    if case .accessors(let accessors) = block.accessors {
      for accessor in accessors {
        let statements = accessor.body?.statements ?? []
        let sends = statements.filter { ObjectWillChangeMigration.isAnnouncement($0) }
        if !statements.isEmpty, sends.count == statements.count {
          edits.append(.delete(context.removalRange(of: accessor).shifted(by: -base)))
        } else {
          remaining += 1
          edits += sends.map { .delete(context.removalRange(of: $0).shifted(by: -base)) }
        }
      }
    } else {
      remaining = 1
    }
    guard remaining > 0 else { return nil }
    return edits.applied(to: block.trimmedDescription)
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
