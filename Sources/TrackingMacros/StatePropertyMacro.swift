import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@TrackedStateProperty(n)`: added by `@TrackedState` to each stored `var` of a struct.
///
/// - peer: private storage `_name` with the original initializer, attributes and
///   observers.
/// - accessor: `init` (so the memberwise initializer keeps the property), `get`
///   (records the read), `set` (notifies unless the new value has the same identity)
///   and `_modify` (mutates in place; notifies unless a state value keeps its identity).
public struct TrackedStatePropertyMacro {}

extension TrackedStatePropertyMacro: AccessorMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingAccessorsOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [AccessorDeclSyntax] {
    guard let variable = declaration.as(VariableDeclSyntax.self),
      variable.isTracked,
      let name = variable.singleIdentifier,
      let id = TrackedPropertyMacro.propertyNumber(node)
    else { return [] }
    let registrar = Names.state.registrarVariable
    return [
      """
      @storageRestrictions(initializes: _\(name))
      init(initialValue) {
        _\(name) = initialValue
      }
      """,
      """
      get {
        \(raw: registrar).access(Self.self, property: \(raw: id), name: "\(name)")
        return _\(name)
      }
      """,
      """
      set {
        guard \(raw: Names.state.qualifiedRegistrar).shouldNotify(_\(name), newValue) else {
          _\(name) = newValue
          return
        }
        \(raw: registrar).withMutation(property: \(raw: id)) {
          _\(name) = newValue
        }
      }
      """,
      """
      _modify {
        \(raw: registrar).access(Self.self, property: \(raw: id), name: "\(name)")
        let identity = \(raw: registrar).willModify(property: \(raw: id), _\(name))
        defer {
          \(raw: registrar).didModify(property: \(raw: id), _\(name), identity)
        }
        yield &_\(name)
      }
      """,
    ]
  }
}

extension TrackedStatePropertyMacro: PeerMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingPeersOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    guard let storage = declaration.as(VariableDeclSyntax.self)?
      .backingStorage(droppingAttribute: Names.state.propertyMacro, keepingModifiers: false)
    else { return [] }
    return [storage]
  }
}
