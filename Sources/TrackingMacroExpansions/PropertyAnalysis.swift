import SwiftSyntax

/// What the macros need to know about a `var`/`let` member, read off its syntax.
extension VariableDeclSyntax {
  /// The single identifier bound by this declaration, if it binds exactly one.
  var singleIdentifier: TokenSyntax? {
    guard bindings.count == 1,
      let pattern = bindings.first?.pattern.as(IdentifierPatternSyntax.self)
    else { return nil }
    return pattern.identifier.trimmed
  }

  var isVar: Bool { bindingSpecifier.tokenKind == .keyword(.var) }

  var isInstance: Bool {
    !modifiers.contains { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) }
  }

  var isLazy: Bool { modifiers.contains { $0.name.tokenKind == .keyword(.lazy) } }

  var isWeak: Bool { modifiers.contains { $0.name.tokenKind == .keyword(.weak) } }

  var isUnowned: Bool { modifiers.contains { $0.name.tokenKind == .keyword(.unowned) } }

  /// Whether any binding has a getter or other computing accessor (as opposed to
  /// only `willSet`/`didSet` observers, which a stored property may have).
  var isComputed: Bool {
    bindings.contains { binding in
      guard let block = binding.accessorBlock else { return false }
      switch block.accessors {
      case .getter:
        return true
      case .accessors(let accessors):
        return accessors.contains { accessor in
          switch accessor.accessorSpecifier.tokenKind {
          case .keyword(.willSet), .keyword(.didSet): return false
          default: return true
          }
        }
      }
    }
  }

  /// Whether the declaration carries the attribute `name` (`@name` or `@Tracking.name`).
  func hasAttribute(_ name: String) -> Bool {
    attributes.contains { element in
      guard case .attribute(let attribute) = element else { return false }
      let text = attribute.attributeName.trimmedDescription
      return text == name || text == "\(Names.module).\(name)"
    }
  }

  var isIgnored: Bool { hasAttribute(Names.ignoredMacro) }

  /// Whether an attribute may put the property on a global actor: `@MainActor`, or
  /// any attribute that is not one of Swift's own (lowercase, or `@NSCopying` and the
  /// like) nor one of this library's macros. (A macro cannot tell a custom global actor
  /// from another custom attribute.)
  var mayBeGlobalActorIsolated: Bool {
    let ownAttributes: Set<String> = [
      Names.trackedMacro, Names.ignoredMacro, Names.externalMacro, Names.state.propertyMacro, Names.equalityMacro,
      "NSCopying", "NSManaged", "IBOutlet", "IBInspectable", "GKInspectable",
    ]
    return attributes.contains { element in
      // An attribute inside `#if` cannot be read with certainty: assume it may isolate.
      guard case .attribute(let attribute) = element else { return true }
      let name = attribute.attributeName.trimmedDescription
      let unqualified = name.hasPrefix("\(Names.module).") ? String(name.dropFirst(Names.module.count + 1)) : name
      guard let first = unqualified.first, first.isUppercase else { return false }
      return !ownAttributes.contains(unqualified)
    }
  }

  var isExternallyTracked: Bool { hasAttribute(Names.externalMacro) }

  /// Whether one of the library's tracking property wrappers (`@Tracked`,
  /// `@TrackedLazy`) tracks the property: the compiler then synthesizes its accessors
  /// and storage, and the class macro leaves it alone.
  var isTrackedByWrapper: Bool { hasAttribute(Names.wrapper) || hasAttribute(Names.lazyWrapper) }

  /// A stored instance `var` that the class macro turns into a tracked property
  /// (assuming it passes ``untrackableReason``). `weak` and `unowned` properties are
  /// candidates: their storage keeps the ownership.
  var isTrackingCandidate: Bool {
    isVar && isInstance && !isComputed && !isIgnored && !isExternallyTracked && !isTrackedByWrapper
  }

  /// Why a candidate cannot be tracked, or `nil` if it can.
  var untrackableReason: UntrackableReason? {
    if bindings.count > 1 { return .multipleBindings }
    if singleIdentifier == nil { return .tuplePattern }
    if isLazy { return .lazy }
    return nil
  }

  /// A candidate that passes ``untrackableReason``.
  var isTracked: Bool { isTrackingCandidate && untrackableReason == nil }

  /// A stored instance property (tracked or not), as Codable synthesis sees it.
  /// `@TrackedLazy` values are left out: they are computed, not data.
  var isStoredInstanceProperty: Bool {
    isInstance && !isComputed && !isExternallyTracked && !hasAttribute(Names.lazyWrapper) && singleIdentifier != nil
  }
}

extension VariableDeclSyntax {
  /// The private backing storage `_name` for a tracked property: the original
  /// binding (initializer, type, `willSet`/`didSet`) under the new name, marked
  /// `@TrackingIgnored`, with the property's attributes except `droppedAttribute`
  /// (the macro that asked for it). `weak`/`unowned` are always kept (they describe
  /// the storage); with `keepingModifiers`, the other non-access modifiers
  /// (`nonisolated`, …) are kept too. `nil` for declarations that are not tracked.
  func backingStorage(droppingAttribute droppedAttribute: String, keepingModifiers: Bool) -> DeclSyntax? {
    guard isTracked, let name = singleIdentifier, let binding = bindings.first else { return nil }
    var storage = binding.trimmed
    storage.pattern = PatternSyntax(IdentifierPatternSyntax(identifier: "_\(raw: name.text)"))
    let attributeText = attributes.filter { element in
      guard case .attribute(let attribute) = element else { return true }
      return attribute.attributeName.trimmedDescription != droppedAttribute
    }.trimmed.map { $0.trimmedDescription + " " }.joined()
    let modifierText = modifiers.filter { modifier in
      switch modifier.name.tokenKind {
      case .keyword(.weak), .keyword(.unowned):
        return true
      case .keyword(.public), .keyword(.private), .keyword(.fileprivate), .keyword(.internal),
        .keyword(.package), .keyword(.open), .keyword(.final), .keyword(.override):
        return false
      default:
        return keepingModifiers
      }
    }.map { $0.trimmedDescription + " " }.joined()
    return "@\(raw: Names.ignoredMacro) \(raw: attributeText)private \(raw: modifierText)var \(storage)"
  }
}
