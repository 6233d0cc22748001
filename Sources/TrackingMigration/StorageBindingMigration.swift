import SwiftSyntax

/// `model.$flag`, where `flag` is an `@AppStorage` property of a model that
/// ``AppStorageMigration`` turns into a computed property: the projection (a
/// `Binding`) is gone, so the binding is made from the model instead:
///
/// ```swift
/// Toggle(isOn: preferences.$alwaysUseDeepL) { … }
/// // becomes
/// Toggle(isOn: Bindable(preferences).alwaysUseDeepL) { … }
/// ```
///
/// `Bindable(_:)` takes any `Observable` object, which both macros' classes are. When
/// the object's type cannot be determined, but a converted property has that name,
/// the site is reported.
enum StorageBindingMigration {
  /// What a `$name` reference is, as far as this rule goes.
  enum Resolution {
    /// A converted `@AppStorage` property of the object's class.
    case convertible
    /// The object's type is unknown, and some converted property has that name.
    case unknownObject
  }

  /// How `node`, a `$name` with an explicit object other than `self`, relates to the
  /// `@AppStorage` properties the run converts; `nil` when it does not.
  static func resolution(of node: DeclReferenceExprSyntax, index: ProjectIndex) -> Resolution? {
    let text = node.baseName.text
    guard text.hasPrefix("$"), text.count > 1, let member = node.parent?.as(MemberAccessExprSyntax.self),
      member.declName.id == node.id, let base = member.base, !BodyEffects.isSelf(base)
    else { return nil }
    let name = String(text.dropFirst())
    if let type = ExpressionTypeResolver.typeName(of: base, index: index) {
      return index.convertsAppStorage(name, of: type) ? .convertible : nil
    }
    let anyClass = index.appStoragePropertiesByClass.keys.contains { index.convertsAppStorage(name, of: $0) }
    return anyClass ? .unknownObject : nil
  }

  static func migrate(_ node: DeclReferenceExprSyntax, in context: FileContext) {
    guard let resolution = resolution(of: node, index: context.index),
      let member = node.parent?.as(MemberAccessExprSyntax.self), let base = member.base
    else { return }
    let name = String(node.baseName.text.dropFirst())
    switch resolution {
    case .convertible:
      context.replace(member, with: "Bindable(\(base.trimmedDescription)).\(name)")
      context.converted(node)
    case .unknownObject:
      context.report(
        .warning, .storageBinding, at: node,
        "cannot determine the type of '\(base.trimmedDescription)'; if '\(name)' is the @AppStorage property of a migrated model, it is now a computed property without '$\(name)': write 'Bindable(\(base.trimmedDescription)).\(name)'")
    }
  }
}
