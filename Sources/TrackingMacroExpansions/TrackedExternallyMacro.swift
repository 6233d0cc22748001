import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@TrackedExternally(storage)`: a tracked property whose value lives elsewhere
/// (UserDefaults, a file, a C struct) behind an `ExternalStorage`.
///
/// ```swift
/// @TrackedExternally(DefaultsValue(key: "volume", default: 0.5)) var volume: Double
/// ```
/// expands to a private `_volume` holding the storage and a computed `volume` whose
/// getter records the read and whose setter reports the write, through the class's
/// generated `access(keyPath:)` / `withMutation(keyPath:_:)`, so user code makes no
/// registrar calls.
open class TrackedExternallyMacro {}

extension TrackedExternallyMacro: AccessorMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingAccessorsOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [AccessorDeclSyntax] {
    guard let variable = declaration.as(VariableDeclSyntax.self),
      let name = validate(variable, node: node, context: context)
    else { return [] }
    return [
      """
      get {
        access(keyPath: \\.\(name))
        return _\(name).load()
      }
      """,
      setter(name, EqualityRuleSyntax(of: variable)),
    ]
  }

  /// The `set` accessor. By default a write that changes nothing (`shouldNotify`: equal
  /// `Equatable` values, the same object) is not stored, so the storage is not written
  /// for nothing. A `@TrackedEquality` rule decides instead; a write it does not count
  /// as a change is still stored, without notifying (the rule may call different values
  /// the same, as `by:` does), as the stored properties' setters do.
  static func setter(_ name: TokenSyntax, _ rule: EqualityRuleSyntax?) -> AccessorDeclSyntax {
    guard let condition = rule.notifyCondition(oldValue: "_\(name.text).load()") else {
      return """
        set {
          withMutation(keyPath: \\.\(name)) {
            _\(name).store(newValue)
          }
        }
        """
    }
    let unchanged: CodeBlockItemListSyntax =
      rule == nil
      ? "return"
      : """
        _\(name).store(newValue)
        return
        """
    return """
      set {
        guard \(raw: condition) else {
          \(unchanged)
        }
        withMutation(keyPath: \\.\(name)) {
          _\(name).store(newValue)
        }
      }
      """
  }

  /// The property's name if it is a plain `var name: Type` with no initializer or
  /// accessors; otherwise diagnoses and returns `nil`. Only the accessor role reports,
  /// so each problem is reported once.
  static func validate(
    _ variable: VariableDeclSyntax, node: AttributeSyntax, context: (any MacroExpansionContext)?
  ) -> TokenSyntax? {
    func fail(_ id: TrackingDiagnostic, _ text: String) -> TokenSyntax? {
      context?.diagnose(Diagnostic(node: variable, message: TrackingMessage.external(id, text)))
      return nil
    }
    guard variable.isVar, let name = variable.singleIdentifier, let binding = variable.bindings.first,
      binding.typeAnnotation != nil
    else {
      return fail(.externalNeedsVar, "applies to a single 'var name: Type' declaration")
    }
    if binding.initializer != nil {
      return fail(.externalHasInitializer, "property '\(name.text)' takes its value from its storage; remove the initial value")
    }
    if binding.accessorBlock != nil {
      return fail(.externalHasAccessors, "property '\(name.text)' gets its accessors from its storage; remove the accessor block")
    }
    return name
  }
}

extension TrackedExternallyMacro: PeerMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingPeersOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    guard let variable = declaration.as(VariableDeclSyntax.self),
      let name = validate(variable, node: node, context: nil),
      case .argumentList(let arguments) = node.arguments,
      let storage = arguments.first?.expression
    else { return [] }
    return ["@\(raw: Names.ignoredMacro) private let _\(name) = \(storage.trimmed)"]
  }
}
