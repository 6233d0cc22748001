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

  /// `weak` or `unowned`: these only apply to stored properties, and a tracked
  /// property becomes computed.
  var referenceOwnership: String? {
    for modifier in modifiers {
      switch modifier.name.tokenKind {
      case .keyword(.weak): return "weak"
      case .keyword(.unowned): return "unowned"
      default: continue
      }
    }
    return nil
  }

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
  var isExternallyTracked: Bool { hasAttribute(Names.externalMacro) }

  /// A stored instance `var` that the class macro turns into a tracked property
  /// (assuming it passes ``untrackableReason``).
  var isTrackingCandidate: Bool {
    isVar && isInstance && !isComputed && !isIgnored && !isExternallyTracked
  }

  /// Why a candidate cannot be tracked, or `nil` if it can.
  var untrackableReason: (TrackingDiagnostic, String)? {
    if bindings.count > 1 {
      return (.multipleBindings, "declare each tracked property in its own 'var'")
    }
    if singleIdentifier == nil {
      return (.patternBinding, "tuple patterns cannot be tracked; declare each element in its own 'var'")
    }
    if isLazy {
      return (.lazyProperty, "a 'lazy' property's storage is managed by the compiler")
    }
    if let ownership = referenceOwnership {
      return (.referenceOwnership, "'\(ownership)' applies only to stored properties, and a tracked property is computed")
    }
    return nil
  }

  /// A stored instance property (tracked or not), as Codable synthesis sees it.
  var isStoredInstanceProperty: Bool {
    isInstance && !isComputed && !isExternallyTracked && singleIdentifier != nil
  }
}

extension DeclGroupSyntax {
  /// The variable declarations among the group's direct members.
  var variableMembers: [VariableDeclSyntax] {
    memberBlock.members.compactMap { $0.decl.as(VariableDeclSyntax.self) }
  }

  /// The tracked stored properties in declaration order; a property's number in the
  /// registrar is its index here. (Hand-written and `@TrackedExternally` properties
  /// go through the key-path entry points and are numbered at run time.)
  var numberedPropertyNames: [String] {
    variableMembers.compactMap { variable in
      guard variable.isTrackingCandidate, variable.untrackableReason == nil else { return nil }
      return variable.singleIdentifier?.text
    }
  }

  /// The member-attribute step shared by `@Trackable` and `@TrackedState`: the
  /// `@<propertyMacro>(n)` attribute that numbers `member`, or `nil` when the member
  /// is not a tracked stored property or already carries the attribute. A member
  /// that cannot be tracked gets `nil` too, after `reportUntrackable` was called with
  /// it and the message saying why.
  func numberingAttribute(
    for member: some DeclSyntaxProtocol, propertyMacro: String,
    reportUntrackable: (VariableDeclSyntax, TrackingMessage) -> Void
  ) -> AttributeSyntax? {
    guard let variable = member.as(VariableDeclSyntax.self),
      variable.isTrackingCandidate,
      !variable.hasAttribute(propertyMacro)
    else { return nil }
    if let (id, reason) = variable.untrackableReason {
      let name = variable.bindings.first?.pattern.trimmedDescription ?? "?"
      reportUntrackable(variable, .cannotTrack(id, property: name, reason: reason))
      return nil
    }
    guard let name = variable.singleIdentifier?.text,
      let index = numberedPropertyNames.firstIndex(of: name)
    else { return nil }
    return "@\(raw: propertyMacro)(\(raw: index))"
  }

  /// Whether the type lists `name` among its inherited types.
  func inherits(_ name: String) -> Bool {
    inheritanceClause?.inheritedTypes.contains { inherited in
      let text = inherited.type.trimmedDescription
      return text == name || text.hasSuffix(".\(name)")
    } ?? false
  }

  /// Whether the group declares a member type or alias named `name`.
  func declaresType(named name: String) -> Bool {
    memberBlock.members.contains { member in
      if let e = member.decl.as(EnumDeclSyntax.self) { return e.name.text == name }
      if let s = member.decl.as(StructDeclSyntax.self) { return s.name.text == name }
      if let t = member.decl.as(TypeAliasDeclSyntax.self) { return t.name.text == name }
      return false
    }
  }
}

extension VariableDeclSyntax {
  /// The private backing storage `_name` for a tracked property: the original
  /// binding (initializer, type, `willSet`/`didSet`) under the new name, marked
  /// `@TrackingIgnored`, with the property's attributes except `droppedAttribute`
  /// (the macro that asked for it). With `keepingModifiers`, non-access modifiers
  /// (`nonisolated`, …) are kept too. `nil` for declarations that are not tracked.
  func backingStorage(droppingAttribute droppedAttribute: String, keepingModifiers: Bool) -> DeclSyntax? {
    guard isTrackingCandidate, untrackableReason == nil,
      let name = singleIdentifier, let binding = bindings.first
    else { return nil }
    var storage = binding.trimmed
    storage.pattern = PatternSyntax(IdentifierPatternSyntax(identifier: "_\(raw: name.text)"))
    let attributeText = attributes.filter { element in
      guard case .attribute(let attribute) = element else { return true }
      return attribute.attributeName.trimmedDescription != droppedAttribute
    }.trimmed.map { $0.trimmedDescription + " " }.joined()
    let modifierText = !keepingModifiers ? "" : modifiers.filter { modifier in
      switch modifier.name.tokenKind {
      case .keyword(.public), .keyword(.private), .keyword(.fileprivate), .keyword(.internal),
        .keyword(.package), .keyword(.open), .keyword(.final), .keyword(.override):
        return false
      default:
        return true
      }
    }.map { $0.trimmedDescription + " " }.joined()
    return "@\(raw: Names.ignoredMacro) \(raw: attributeText)private \(raw: modifierText)var \(storage)"
  }
}
