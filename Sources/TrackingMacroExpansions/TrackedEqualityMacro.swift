import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@TrackedEquality(…)`: chooses what counts as a change when a tracked property is
/// set. It generates nothing itself; ``TrackedPropertyMacro`` reads it and writes the
/// setter's condition. Here it only checks that the rule is one the setter can be
/// written for.
open class TrackedEqualityMacro: PeerMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingPeersOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    if EqualityRuleSyntax(node) == nil {
      context.diagnose(
        Diagnostic(
          node: node,
          message: MacroExpansionErrorMessage(
            "@TrackedEquality takes .equality, .identity or .always, 'using:' a function that compares two values, or 'by:' a key path")))
    }
    return []
  }
}

/// The rule of a `@TrackedEquality` attribute, as the setter writes it.
enum EqualityRuleSyntax: Equatable {
  case equality, identity, always
  /// `using: isEqual` — the expression's text.
  case using(String)
  /// `by: \Value.key` — the key path's text.
  case by(String)

  /// The rule of the `@TrackedEquality` attribute of `variable`, if it has one.
  init?(of variable: VariableDeclSyntax) {
    for element in variable.attributes {
      guard case .attribute(let attribute) = element else { continue }
      let name = attribute.attributeName.trimmedDescription
      guard name == Names.equalityMacro || name == "\(Names.module).\(Names.equalityMacro)" else { continue }
      self.init(attribute)
      return
    }
    return nil
  }

  /// The rule an attribute spells, or `nil` if it is not one of the accepted forms.
  init?(_ attribute: AttributeSyntax) {
    guard case .argumentList(let arguments) = attribute.arguments, arguments.count == 1, let argument = arguments.first
    else { return nil }
    let expression = argument.expression.trimmedDescription
    switch argument.label?.text {
    case "using": self = .using(expression)
    case "by": self = .by(expression)
    case nil:
      guard let member = argument.expression.as(MemberAccessExprSyntax.self) else { return nil }
      if let base = member.base?.trimmedDescription,
        base != "TrackedEqualityRule" && base != "\(Names.module).TrackedEqualityRule"
      {
        return nil
      }
      switch member.declName.baseName.text {
      case "equality": self = .equality
      case "identity": self = .identity
      case "always": self = .always
      default: return nil
      }
    default: return nil
    }
  }
}

extension EqualityRuleSyntax? {
  /// The condition under which a setter notifies, comparing `oldValue` (an expression
  /// for the stored value) with `newValue`: by default (`nil`) the registrar's
  /// `shouldNotify`, else the rule's. `nil` for `.always`, which notifies every write.
  /// `@TrackedProperty` and `@TrackedExternally` both write their setters with it.
  func notifyCondition(oldValue: String) -> String? {
    let registrar = Names.qualifiedRegistrar
    return switch self {
    case nil: "\(registrar).shouldNotify(\(oldValue), newValue)"
    case .equality: "\(registrar)._notifiesUnlessEqual(\(oldValue), newValue)"
    case .identity: "\(registrar)._notifiesUnlessIdentical(\(oldValue), newValue)"
    case .always: nil
    case .using(let isEqual): "\(registrar)._notifies(\(oldValue), newValue, unlessEqualBy: \(isEqual))"
    case .by(let key): "\(registrar)._notifies(\(oldValue), newValue, unlessSameAt: \(key))"
    }
  }
}
