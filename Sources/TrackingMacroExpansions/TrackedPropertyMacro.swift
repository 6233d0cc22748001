import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@TrackedProperty(n)` / `@TrackedProperty`: added by `@Trackable` to each stored
/// `var`; not written by hand.
///
/// - peer: the backing storage `_name`, private, carrying the original initializer, any
///   `willSet`/`didSet` the user wrote (so they still run) and `weak`/`unowned`.
/// - accessor: `init` (so definite initialization works, with or without an initial
///   value), `get` (records the read), `set` (skips notifying for an equal value, as
///   Apple's macro does since Swift 6.2) and `_modify` (mutates in place, so appending
///   to an array property does not copy it; it brackets the mutation with the
///   registrar's `_beginModify`/`_willModify`/`_endModify`/`_didModify`: the property's will-set and
///   did-set except for a tracked collection, which notifies its own readers).
///
/// With a number, the accessors call the registrar's numbered entry points: the fast
/// path. Without one — in a class that declares its own `access(keyPath:)` or
/// `withMutation(keyPath:_:)` — `get` calls `access(keyPath:)`, `set` calls
/// `withMutation(keyPath:_:)` and `_modify` calls `access(keyPath:)` and the
/// registrar's `_beginModify`, key-path `_willModify`, `_endModify` and key-path
/// `_didModify`, as Apple's accessors call
/// `willSet`/`didSet`.
open class TrackedPropertyMacro {}

extension TrackedPropertyMacro: AccessorMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingAccessorsOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [AccessorDeclSyntax] {
    guard let variable = declaration.as(VariableDeclSyntax.self), variable.isTracked,
      let name = variable.singleIdentifier
    else { return [] }

    // An `init` accessor, as Apple's macro has: an `init` may then assign the property
    // before the class's other stored properties are set (the assignment initializes
    // the storage instead of calling the setter). Not for a property with an initial
    // value and an attribute that may isolate it (`@MainActor var title = ""`): its
    // `init` accessor would be isolated too, and Swift 6 then rejects the class's
    // default initializer; the storage's initial value serves.
    var accessors: [AccessorDeclSyntax] = []
    if variable.bindings.first?.initializer == nil || !variable.mayBeGlobalActorIsolated {
      accessors.append(
        """
        @storageRestrictions(initializes: _\(name))
        init(initialValue) {
          _\(name) = initialValue
        }
        """)
    }
    let rule = EqualityRuleSyntax(of: variable)
    if let id = propertyNumber(node) {
      accessors += numberedAccessors(name, id, rule)
    } else {
      accessors += keyPathAccessors(name, rule)
    }
    return accessors
  }

  /// The fast path: the registrar's numbered entry points.
  static func numberedAccessors(_ name: TokenSyntax, _ id: Int, _ rule: EqualityRuleSyntax?) -> [AccessorDeclSyntax] {
    let registrar = Names.registrarVariable
    let arguments = "self, property: \(id), keyPath: \\.\(name.text)"
    return [
      """
      get {
        \(raw: registrar).access(\(raw: arguments))
        return _\(name)
      }
      """,
      setter(name, rule, mutation: "\(registrar).withMutation(of: \(arguments))"),
      """
      _modify {
        \(raw: registrar).access(\(raw: arguments))
        let modification = \(raw: registrar)._beginModify(&_\(name))
        \(raw: registrar)._willModify(\(raw: arguments), modification)
        defer {
          \(raw: registrar)._didModify(\(raw: arguments), \(raw: registrar)._endModify(&_\(name), modification))
        }
        yield &_\(name)
      }
      """,
    ]
  }

  /// Through the class's `access(keyPath:)` and `withMutation(keyPath:_:)`. Every
  /// registrar call here uses key paths, so that the class's methods (which get only
  /// key paths) and the accessors name each property the same way.
  static func keyPathAccessors(_ name: TokenSyntax, _ rule: EqualityRuleSyntax?) -> [AccessorDeclSyntax] {
    let registrar = Names.registrarVariable
    let keyPath = "\\.\(name.text)"
    return [
      """
      get {
        access(keyPath: \(raw: keyPath))
        return _\(name)
      }
      """,
      setter(name, rule, mutation: "withMutation(keyPath: \(keyPath))"),
      """
      _modify {
        access(keyPath: \(raw: keyPath))
        let modification = \(raw: registrar)._beginModify(&_\(name))
        \(raw: registrar)._willModify(self, keyPath: \(raw: keyPath), modification)
        defer {
          \(raw: registrar)._didModify(self, keyPath: \(raw: keyPath), \(raw: registrar)._endModify(&_\(name), modification))
        }
        yield &_\(name)
      }
      """,
    ]
  }

  /// The `set` accessor: stores without notifying when the property's rule (by
  /// default: equal `Equatable` values, the same object) says the write is no change,
  /// else stores inside `mutation`.
  static func setter(_ name: TokenSyntax, _ rule: EqualityRuleSyntax?, mutation: String) -> AccessorDeclSyntax {
    guard let condition = rule.notifyCondition(oldValue: "_\(name.text)") else {
      return """
        set {
          \(raw: mutation) {
            _\(name) = newValue
          }
        }
        """
    }
    return """
      set {
        guard \(raw: condition) else {
          _\(name) = newValue
          return
        }
        \(raw: mutation) {
          _\(name) = newValue
        }
      }
      """
  }

  /// The `n` of `@TrackedProperty(n)`, or `nil` for `@TrackedProperty`.
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
    // Keep non-access modifiers (`nonisolated`, `weak`, …); the storage is private.
    guard let storage = declaration.as(VariableDeclSyntax.self)?
      .backingStorage(droppingAttribute: Names.trackedMacro, keepingModifiers: true)
    else { return [] }
    return [storage]
  }
}

/// `@TrackingIgnored`: leaves a property of a `@Trackable` class untracked.
/// It generates nothing; `@Trackable` looks for it.
open class TrackingIgnoredMacro: AccessorMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingAccessorsOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [AccessorDeclSyntax] {
    []
  }
}
