import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@TrackedProperty(n)`: added by `@Trackable` to each stored `var`; not written by hand.
///
/// - peer: the backing storage `_name`, private, carrying the original initializer and
///   any `willSet`/`didSet` the user wrote (so they still run).
/// - accessor: `init` (so definite initialization works when there is no initial
///   value), `get` (records the read), `set` (skips notifying for an equal value, as
///   Apple's macro does since Swift 6.2) and `_modify` (mutates in place, so appending
///   to an array property does not copy it).
public struct TrackedPropertyMacro {}

extension TrackedPropertyMacro: AccessorMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingAccessorsOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [AccessorDeclSyntax] {
    guard let variable = declaration.as(VariableDeclSyntax.self),
      variable.isTrackingCandidate, variable.untrackableReason == nil,
      let name = variable.singleIdentifier,
      let id = propertyNumber(node)
    else { return [] }

    let registrar = Names.registrarVariable
    let arguments = "self, property: \(id), keyPath: \\.\(name.text)"
    var accessors: [AccessorDeclSyntax] = []
    if variable.bindings.first?.initializer == nil {
      accessors.append(
        """
        @storageRestrictions(initializes: _\(name))
        init(initialValue) {
          _\(name) = initialValue
        }
        """)
    }
    accessors.append(
      """
      get {
        \(raw: registrar).access(\(raw: arguments))
        return _\(name)
      }
      """)
    accessors.append(
      """
      set {
        guard \(raw: Names.qualifiedRegistrar).shouldNotify(_\(name), newValue) else {
          _\(name) = newValue
          return
        }
        \(raw: registrar).withMutation(of: \(raw: arguments)) {
          _\(name) = newValue
        }
      }
      """)
    accessors.append(
      """
      _modify {
        \(raw: registrar).access(\(raw: arguments))
        \(raw: registrar).willSet(\(raw: arguments))
        defer {
          \(raw: registrar).didSet(\(raw: arguments))
        }
        yield &_\(name)
      }
      """)
    return accessors
  }

  static func propertyNumber(_ node: AttributeSyntax) -> Int? {
    guard case .argumentList(let arguments) = node.arguments,
      let literal = arguments.first?.expression.as(IntegerLiteralExprSyntax.self)
    else { return nil }
    return Int(literal.literal.text)
  }
}

extension TrackedPropertyMacro: PeerMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingPeersOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    // Keep non-access modifiers (`nonisolated`, …); the storage is private.
    guard let storage = declaration.as(VariableDeclSyntax.self)?
      .backingStorage(droppingAttribute: Names.trackedMacro, keepingModifiers: true)
    else { return [] }
    return [storage]
  }
}

/// `@TrackingIgnored`: leaves a property of a `@Trackable` class untracked.
/// It generates nothing; `@Trackable` looks for it.
public struct TrackingIgnoredMacro: AccessorMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingAccessorsOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [AccessorDeclSyntax] {
    []
  }
}
