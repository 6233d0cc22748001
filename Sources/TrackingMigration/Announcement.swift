import SwiftSyntax

/// A hand-written `objectWillChange.send()` (also `self.` or `self?.`-qualified)
/// and the code it sits in.
struct Announcement {
  /// The `objectWillChange` reference.
  var reference: DeclReferenceExprSyntax
  /// The whole `… .send()` call.
  var call: FunctionCallExprSyntax
  /// Where it is.
  var place: Place

  enum Place {
    /// In the `willSet`/`didSet` of the stored property `property`.
    case observer(AccessorDeclSyntax, property: String)
    /// Directly in the body of a method or initializer (not in a closure).
    case body(CodeBlockSyntax)
    /// Inside a closure (which may run at any time).
    case closure(ClosureExprSyntax)
  }

  /// The announcement made through `reference`, if it is one.
  init?(_ reference: DeclReferenceExprSyntax) {
    guard reference.baseName.text == "objectWillChange" else { return nil }
    // `objectWillChange` alone, or `self.objectWillChange` / `self?.objectWillChange`.
    var publisher = ExprSyntax(reference)
    if let member = reference.parent?.as(MemberAccessExprSyntax.self), member.declName.id == reference.id {
      guard let base = member.base, BodyEffects.isSelf(base) else { return nil }
      publisher = ExprSyntax(member)
    }
    guard let send = publisher.parent?.as(MemberAccessExprSyntax.self), send.base?.id == publisher.id,
      send.declName.baseName.text == "send",
      let call = send.parent?.as(FunctionCallExprSyntax.self), call.arguments.isEmpty, call.trailingClosure == nil,
      let place = Self.place(of: call)
    else { return nil }
    self.reference = reference
    self.call = call
    self.place = place
  }

  private static func place(of call: FunctionCallExprSyntax) -> Place? {
    var current = call.parent
    while let node = current {
      if let closure = node.as(ClosureExprSyntax.self) { return .closure(closure) }
      if let accessor = node.as(AccessorDeclSyntax.self) {
        let kind = accessor.accessorSpecifier.tokenKind
        guard kind == .keyword(.willSet) || kind == .keyword(.didSet),
          let binding = accessor.parent?.parent?.parent?.as(PatternBindingSyntax.self),
          let name = SyntaxQueries.boundName(of: binding)
        else { return nil }
        return .observer(accessor, property: name)
      }
      if let function = node.as(FunctionDeclSyntax.self) { return function.body.map { .body($0) } }
      if let initializer = node.as(InitializerDeclSyntax.self) { return initializer.body.map { .body($0) } }
      if node.is(MemberBlockSyntax.self) || node.is(SourceFileSyntax.self) { return nil }
      current = node.parent
    }
    return nil
  }

  /// The stored properties this announcement covers: the observed property, or the
  /// names written in the body around it (closures included).
  var announcedNames: Set<String> {
    switch place {
    case .observer(_, let property): [property]
    case .body(let body): BodyEffects.of(body).writtenRoots
    case .closure(let closure):
      BodyEffects.of(Self.outermostClosure(around: closure)).writtenRoots
    }
  }

  /// The outermost closure that contains `closure` within the same function: the
  /// work that runs (later) around the announcement.
  private static func outermostClosure(around closure: ClosureExprSyntax) -> ClosureExprSyntax {
    var outermost = closure
    var current = closure.parent
    while let candidate = current {
      if candidate.is(FunctionDeclSyntax.self) || candidate.is(InitializerDeclSyntax.self)
        || candidate.is(AccessorDeclSyntax.self) || candidate.is(MemberBlockSyntax.self)
      {
        break
      }
      if let enclosing = candidate.as(ClosureExprSyntax.self) { outermost = enclosing }
      current = candidate.parent
    }
    return outermost
  }
}
