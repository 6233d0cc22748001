import SwiftSyntax

/// Lint: a short-circuit condition may skip a tracked read for good.
///
/// Tracking records only the properties actually read. In a closure that re-runs
/// when what it read changes (`observe { }`, `withTracking`'s first closure,
/// `Derived { }`, `TrackedValues { }`, `Observations { }`…), the condition
/// `if isVisible && model.count > 0` does not read `model.count` while `isVisible`
/// is `false`. If `isVisible` is itself tracked, its change re-runs the closure and
/// the read happens then: no problem. If it is not — a `var` captured from outside,
/// a property of a type that is not observable, an ignored property — nothing ever
/// re-runs the closure, and changes to `model.count` are missed.
///
/// So the rule reports `&&`/`||` in a condition (of `if`, `guard`, `while`,
/// `repeat`, or a ternary) inside such a closure when the left side is built only
/// from such untracked, mutable names (with `!` and parentheses) and the right side
/// reads a member. It does not check SwiftUI view bodies: there every value the left
/// side can use (state, inputs, environment, locals made from them) re-runs the body
/// when it changes.
final class ShortCircuitReadRule: SyntaxVisitor {
  private let context: FileContext

  init(context: FileContext) {
    self.context = context
    super.init(viewMode: .sourceAccurate)
  }

  override func visit(_ node: IfExprSyntax) -> SyntaxVisitorContinueKind {
    check(node.conditions)
    return .visitChildren
  }

  override func visit(_ node: GuardStmtSyntax) -> SyntaxVisitorContinueKind {
    check(node.conditions)
    return .visitChildren
  }

  override func visit(_ node: WhileStmtSyntax) -> SyntaxVisitorContinueKind {
    check(node.conditions)
    return .visitChildren
  }

  override func visit(_ node: RepeatStmtSyntax) -> SyntaxVisitorContinueKind {
    check(node.condition)
    return .visitChildren
  }

  override func visit(_ node: TernaryExprSyntax) -> SyntaxVisitorContinueKind {
    check(node.condition)
    return .visitChildren
  }

  private func check(_ conditions: ConditionElementListSyntax) {
    for element in conditions {
      if case .expression(let expression) = element.condition { check(expression) }
    }
  }

  private func check(_ expression: ExprSyntax) {
    guard let closure = Self.trackedClosure(around: expression) else { return }
    checkOperands(expression, in: closure)
  }

  /// The closure of a tracking call that `node` runs in, if any (not crossing a
  /// function or type declaration).
  static func trackedClosure(around node: some SyntaxProtocol) -> ClosureExprSyntax? {
    var current = node.parent
    while let candidate = current {
      if candidate.is(FunctionDeclSyntax.self) || candidate.is(MemberBlockSyntax.self) { return nil }
      if let closure = candidate.as(ClosureExprSyntax.self), isTrackedClosure(closure) { return closure }
      current = candidate.parent
    }
    return nil
  }

  /// Whether `closure` is the tracked closure of a tracking call: the only or first
  /// closure (the `apply` of one-shot tracking, not its `onChange`).
  private static func isTrackedClosure(_ closure: ClosureExprSyntax) -> Bool {
    var call = closure.parent?.as(FunctionCallExprSyntax.self)
    if call == nil, let argument = closure.parent?.as(LabeledExprSyntax.self), argument.label == nil {
      call = argument.parent?.parent?.as(FunctionCallExprSyntax.self)
    }
    guard let call, LintRules.isCall(call, to: LintRules.trackedClosureCalls) else { return false }
    return call.additionalTrailingClosures.allSatisfy { $0.closure.id != closure.id }
  }

  private func checkOperands(_ expression: ExprSyntax, in closure: ClosureExprSyntax) {
    let expression = Self.unparenthesized(expression)
    guard let infix = expression.as(InfixOperatorExprSyntax.self),
      let op = infix.operator.as(BinaryOperatorExprSyntax.self)?.operator.text,
      op == "&&" || op == "||"
    else { return }
    if let untracked = untrackedName(in: infix.leftOperand, closure: closure),
      let read = Self.firstMemberRead(in: infix.rightOperand)
    {
      context.report(
        .warning, .shortCircuit, at: read,
        "'\(read.trimmedDescription)' is not read while '\(infix.leftOperand.trimmedDescription)' short-circuits '\(op)', and '\(untracked.name)' is \(untracked.why), so its change never re-runs this closure and '\(read.trimmedDescription)' is never tracked; read it into a local before the condition (or make '\(untracked.name)' tracked)")
      return
    }
    // Keep looking inside: `(a.b || c) && flag` etc.
    checkOperands(infix.leftOperand, in: closure)
    checkOperands(infix.rightOperand, in: closure)
  }

  /// A name on the left side whose changes do not re-run the closure, when the left
  /// side is made only of names (`!`, parentheses, `&&`/`||`) and has one.
  private func untrackedName(in expression: ExprSyntax, closure: ClosureExprSyntax) -> (name: String, why: String)? {
    var names: [ExprSyntax] = []
    guard Self.collectNames(expression, into: &names) else { return nil }
    for name in names {
      if let why = untrackedReason(name, closure: closure) {
        return (name.trimmedDescription, why)
      }
    }
    return nil
  }

  /// Collects the leaves of a left side, or returns `false` if it is not made only
  /// of names, `self.name`, boolean literals, `!`, parentheses and `&&`/`||`.
  private static func collectNames(_ expression: ExprSyntax, into names: inout [ExprSyntax]) -> Bool {
    let expression = unparenthesized(expression)
    if expression.is(BooleanLiteralExprSyntax.self) { return true }
    if let reference = expression.as(DeclReferenceExprSyntax.self) {
      guard reference.baseName.tokenKind != .keyword(.self) else { return false }
      names.append(expression)
      return true
    }
    if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base, BodyEffects.isSelf(base) {
      names.append(expression)
      return true
    }
    if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "!" {
      return collectNames(prefix.expression, into: &names)
    }
    if let infix = expression.as(InfixOperatorExprSyntax.self),
      let op = infix.operator.as(BinaryOperatorExprSyntax.self)?.operator.text, op == "&&" || op == "||"
    {
      return collectNames(infix.leftOperand, into: &names) && collectNames(infix.rightOperand, into: &names)
    }
    return false
  }

  /// Why `name` can change without re-running `closure`, or `nil` if it cannot (a
  /// constant, a parameter, a tracked property) or the tool cannot tell.
  private func untrackedReason(_ name: ExprSyntax, closure: ClosureExprSyntax) -> String? {
    let identifier: String
    var isSelfMember = false
    if let member = name.as(MemberAccessExprSyntax.self) {
      identifier = member.declName.baseName.text
      isSelfMember = true
    } else if let reference = name.as(DeclReferenceExprSyntax.self) {
      identifier = reference.baseName.text
    } else {
      return nil
    }
    if !isSelfMember {
      if let local = Self.localDeclaration(of: identifier, before: closure) {
        return local == .mutable ? "a 'var' captured by the closure" : nil
      }
    }
    guard let owner = SyntaxQueries.enclosingTypeName(of: closure) else { return nil }
    let index = context.index
    let isObservable = index.macroObservableClasses.contains(owner) || index.isMigrated(owner)
    if isObservable {
      return index.ignoredPropertiesByType[owner]?.contains(identifier) == true ? "an ignored property" : nil
    }
    return index.storedVarsByType[owner]?.contains(identifier) == true
      ? "a stored property of '\(owner)', which is not observable" : nil
  }

  private enum Mutability { case mutable, immutable }

  /// Whether `name` is declared as a local or a parameter around `closure` (or in
  /// it, as a closure parameter), and how.
  private static func localDeclaration(of name: String, before closure: ClosureExprSyntax) -> Mutability? {
    if closureParameters(closure).contains(name) { return .immutable }
    var current = closure.parent
    while let node = current {
      if let items = node.as(CodeBlockItemListSyntax.self) {
        for item in items where item.endPosition <= closure.position {
          guard let variable = item.item.as(VariableDeclSyntax.self),
            variable.bindings.contains(where: { SyntaxQueries.boundName(of: $0) == name })
          else { continue }
          return variable.bindingSpecifier.tokenKind == .keyword(.var) ? .mutable : .immutable
        }
      }
      if let function = node.as(FunctionDeclSyntax.self) {
        return function.signature.parameterClause.parameters.contains { ($0.secondName ?? $0.firstName).text == name }
          ? .immutable : nil
      }
      if let initializer = node.as(InitializerDeclSyntax.self) {
        return initializer.signature.parameterClause.parameters.contains { ($0.secondName ?? $0.firstName).text == name }
          ? .immutable : nil
      }
      if let outer = node.as(ClosureExprSyntax.self), closureParameters(outer).contains(name) { return .immutable }
      if node.is(MemberBlockSyntax.self) { return nil }
      current = node.parent
    }
    return nil
  }

  private static func closureParameters(_ closure: ClosureExprSyntax) -> [String] {
    switch closure.signature?.parameterClause {
    case .simpleInput(let names): names.map(\.name.text)
    case .parameterClause(let clause): clause.parameters.map { ($0.secondName ?? $0.firstName).text }
    case nil: []
    }
  }

  /// The first member read with an explicit, non-type base (`model.value`,
  /// not `.none` or `Mode.edit`), outside closures.
  static func firstMemberRead(in expression: ExprSyntax) -> MemberAccessExprSyntax? {
    let finder = MemberReadFinder(viewMode: .sourceAccurate)
    finder.walk(expression)
    return finder.found
  }

  private static func unparenthesized(_ expression: ExprSyntax) -> ExprSyntax {
    if let tuple = expression.as(TupleExprSyntax.self), tuple.elements.count == 1,
      let only = tuple.elements.first, only.label == nil
    {
      return unparenthesized(only.expression)
    }
    return expression
  }
}

private final class MemberReadFinder: SyntaxVisitor {
  var found: MemberAccessExprSyntax?

  override func visit(_ node: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind {
    guard found == nil, let base = node.base else { return .skipChildren }
    if let reference = base.as(DeclReferenceExprSyntax.self),
      SyntaxQueries.startsUppercase(reference.baseName.text)
    {
      return .skipChildren  // `Mode.edit`, `Color.red`: a type member, not an object read.
    }
    found = node
    return .skipChildren
  }

  override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
}
