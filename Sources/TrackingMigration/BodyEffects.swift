import SwiftSyntax

/// What a function or accessor body changes, as far as its syntax shows: which
/// names it assigns or mutates, and whether it makes calls whose effects the tool
/// cannot see. Used to decide what a hand-written `objectWillChange.send()` announced.
struct BodyEffects {
  /// Names whose value is replaced: `x = …`, `self.x += …`.
  var assignedRoots: Set<String> = []
  /// Names mutated through a member, a subscript, a method or `&`: `x.y = …`,
  /// `x[0] = …`, `x.append(…)`, `f(&x)`.
  var mutatedRoots: Set<String> = []
  /// Names declared inside the body (locals, closure parameters).
  var locals: Set<String> = []
  /// Calls on something other than a name (free functions, methods of the object
  /// itself, chains such as `UserDefaults.standard.set`): they may change anything.
  var opaqueCalls: [String] = []
  /// For each closure in the body, the name whose method it is passed to
  /// (`items.removeAll { … }` → `items`), or `nil` for any other closure (work that
  /// may run later, or anywhere).
  var closureOwners: [String?] = []

  /// Every name the body writes to (assigned or mutated).
  var writtenRoots: Set<String> { assignedRoots.union(mutatedRoots) }

  static func of(_ body: some SyntaxProtocol) -> BodyEffects {
    let collector = BodyEffectsCollector(viewMode: .sourceAccurate)
    collector.walk(body)
    return collector.effects
  }

  /// Whether every change in the body is to a stored property in `stored`, so that
  /// once those are tracked a hand-written announcement adds nothing.
  func changesOnly(_ stored: Set<String>) -> Bool {
    guard opaqueCalls.isEmpty, closureOwners.allSatisfy({ $0.map(stored.contains) ?? false }) else { return false }
    let nonLocalAssigned = assignedRoots.subtracting(locals)
    return nonLocalAssigned.isSubset(of: stored) && mutatedRoots.isSubset(of: stored)
  }

  /// The root name of a chain, looking through `self.`, `self?.`, `!`, `?` and
  /// subscripts: `self.items[0].title` → `items`. `nil` for anything else.
  static func root(of expression: ExprSyntax) -> String? {
    var current = expression
    while true {
      if let reference = current.as(DeclReferenceExprSyntax.self) {
        return reference.baseName.tokenKind == .keyword(.self) ? nil : reference.baseName.text
      }
      if let member = current.as(MemberAccessExprSyntax.self) {
        guard let base = member.base else { return nil }
        if isSelf(base) { return member.declName.baseName.text }
        current = base
      } else if let subscriptCall = current.as(SubscriptCallExprSyntax.self) {
        current = subscriptCall.calledExpression
      } else if let optional = current.as(OptionalChainingExprSyntax.self) {
        current = optional.expression
      } else if let forced = current.as(ForceUnwrapExprSyntax.self) {
        current = forced.expression
      } else {
        return nil
      }
    }
  }

  /// `self`, `self?` or `self!`.
  static func isSelf(_ expression: ExprSyntax) -> Bool {
    var current = expression
    if let optional = current.as(OptionalChainingExprSyntax.self) { current = optional.expression }
    if let forced = current.as(ForceUnwrapExprSyntax.self) { current = forced.expression }
    return current.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self)
  }
}

private final class BodyEffectsCollector: SyntaxVisitor {
  var effects = BodyEffects()

  static let assignmentOperators: Set<String> = [
    "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "&+=", "&-=", "&*=",
  ]

  override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
    let elements = Array(node.elements)
    for (position, element) in elements.enumerated() where position > 0 {
      let isAssignment =
        element.is(AssignmentExprSyntax.self)
        || element.as(BinaryOperatorExprSyntax.self).map { Self.assignmentOperators.contains($0.operator.text) } == true
      if isAssignment { recordWrite(to: elements[position - 1]) }
    }
    return .visitChildren
  }

  private func recordWrite(to target: ExprSyntax) {
    guard let root = BodyEffects.root(of: target) else { return }
    let isDirect =
      target.is(DeclReferenceExprSyntax.self)
      || target.as(MemberAccessExprSyntax.self).map { $0.base.map(BodyEffects.isSelf) ?? false } == true
    if isDirect { effects.assignedRoots.insert(root) } else { effects.mutatedRoots.insert(root) }
  }

  /// `objectWillChange`, `self.objectWillChange` or `self?.objectWillChange`.
  private static func isOwnPublisher(_ expression: ExprSyntax) -> Bool {
    if let reference = expression.as(DeclReferenceExprSyntax.self) { return reference.baseName.text == "objectWillChange" }
    guard let member = expression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "objectWillChange",
      let base = member.base
    else { return false }
    return BodyEffects.isSelf(base)
  }

  override func visit(_ node: InOutExprSyntax) -> SyntaxVisitorContinueKind {
    if let root = BodyEffects.root(of: node.expression) { effects.mutatedRoots.insert(root) }
    return .visitChildren
  }

  override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
    let callee = node.calledExpression
    if let member = callee.as(MemberAccessExprSyntax.self) {
      if member.declName.baseName.text == "send", let base = member.base, Self.isOwnPublisher(base) {
        return .visitChildren  // The announcement itself.
      }
      guard let base = member.base else { return .visitChildren }  // `.case(…)`: an implicit member.
      if let root = BodyEffects.root(of: base), !BodyEffects.isSelf(base) {
        if SyntaxQueries.startsUppercase(root), base.is(DeclReferenceExprSyntax.self) {
          effects.opaqueCalls.append(callee.trimmedDescription)  // `Type.method(…)`: may change shared state.
        } else {
          effects.mutatedRoots.insert(root)
        }
        return .visitChildren
      }
    } else if let reference = callee.as(DeclReferenceExprSyntax.self), SyntaxQueries.startsUppercase(reference.baseName.text) {
      return .visitChildren  // `Type(…)`: an initializer.
    }
    effects.opaqueCalls.append(callee.trimmedDescription)
    return .visitChildren
  }

  override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind {
    var call = node.parent?.as(FunctionCallExprSyntax.self)
    if call == nil { call = node.parent?.parent?.parent?.as(FunctionCallExprSyntax.self) }
    let base = call?.calledExpression.as(MemberAccessExprSyntax.self)?.base
    let owner = base.flatMap { BodyEffects.isSelf($0) ? nil : BodyEffects.root(of: $0) }
    effects.closureOwners.append(owner)
    return .visitChildren
  }

  override func visit(_ node: PatternBindingSyntax) -> SyntaxVisitorContinueKind {
    if let name = SyntaxQueries.boundName(of: node) { effects.locals.insert(name) }
    return .visitChildren
  }

  override func visit(_ node: OptionalBindingConditionSyntax) -> SyntaxVisitorContinueKind {
    if let name = node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text { effects.locals.insert(name) }
    return .visitChildren
  }
}
