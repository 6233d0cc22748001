import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@TrackedStateProperty(n)`: added by `@TrackedState` to each stored `var` of a struct.
///
/// - peer: private storage `_name` with the original initializer, attributes and
///   observers.
/// - accessor: `init` (so the memberwise initializer keeps the property), `get`
///   (records the read), `set` and `_modify` (store, or mutate in place, and notify no
///   one: the `StateStore` holding the value notifies after comparing old and new state;
///   both note the write for the types the store cannot compare, and `_modify` records
///   the read as Apple's `_modify` does).
open class TrackedStatePropertyMacro {}

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
    // An `unowned` reference may point to a deallocated object, which must not be
    // loaded: such a field is only stamped when written, never compared.
    // `@TrackedEquality(.always)`: every write is stamped, and compared by its stamp.
    let noteWrite =
      variable.isUnowned || EqualityRuleSyntax(of: variable) == .always
      ? "\(registrar).noteWrite(property: \(id))"
      : "\(registrar).noteWrite(of: _\(name), property: \(id))"
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
        \(raw: noteWrite)
        _\(name) = newValue
      }
      """,
      """
      _modify {
        \(raw: registrar).access(Self.self, property: \(raw: id), name: "\(name)")
        \(raw: noteWrite)
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
