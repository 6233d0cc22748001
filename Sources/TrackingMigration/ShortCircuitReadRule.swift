import SwiftSyntax

/// Lint: a short-circuit condition may skip an observable read.
///
/// Tracking records only the properties actually read. In
/// `if flag && model.value { … }`, when `flag` is `false` on first evaluation
/// `model.value` is never read, so no dependency on it is registered; if
/// `flag` is a plain (untracked) value, nothing ever triggers re-evaluation.
///
/// Heuristic, kept deliberately narrow to avoid noise: in the condition of
/// `if`/`guard`/`while`/`repeat-while` or a ternary, an `&&`/`||` whose left
/// side is *plain* — built only from identifiers, boolean literals, `!` and
/// parentheses — and whose right side reads a member (`a.b`, with an explicit
/// base). Conditions made only of literals and locals are never reported, and
/// neither is a member read on the left, which is always evaluated.
///
/// Only code that runs under observation tracking is checked: members of
/// SwiftUI `View`/`Scene` types (and their extensions, in any input file) and
/// the `apply` closures of `withTracking`, `withCancellableTracking`,
/// `withObservationTracking` and `Observations`. Ordinary code is not reported.
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
    guard isTracked(expression) else { return }
    checkOperands(expression)
  }

  /// Whether `node` runs under observation tracking (see the type's documentation).
  private func isTracked(_ node: some SyntaxProtocol) -> Bool {
    var child = Syntax(node)
    while let parent = child.parent {
      if let closure = child.as(ClosureExprSyntax.self), Self.isTrackingApplyClosure(closure) { return true }
      if let typeName = SyntaxQueries.typeName(declaredBy: parent) {
        return context.index.viewTypes.contains(typeName)
      }
      child = parent
    }
    return false
  }

  private static func isTrackingApplyClosure(_ closure: ClosureExprSyntax) -> Bool {
    let trackers = LintRules.trackingFunctions.union(["Observations"])
    var call = closure.parent?.as(FunctionCallExprSyntax.self)
    if call == nil, let argument = closure.parent?.as(LabeledExprSyntax.self), argument.label == nil {
      call = argument.parent?.parent?.as(FunctionCallExprSyntax.self)
    }
    guard let call, let name = SyntaxQueries.calleeName(of: call), trackers.contains(name) else { return false }
    return call.additionalTrailingClosures.allSatisfy { $0.closure.id != closure.id }
  }

  private func checkOperands(_ expression: ExprSyntax) {
    let expression = Self.unparenthesized(expression)
    guard let infix = expression.as(InfixOperatorExprSyntax.self),
      let op = infix.operator.as(BinaryOperatorExprSyntax.self)?.operator.text,
      op == "&&" || op == "||"
    else { return }
    if Self.isPlain(infix.leftOperand), let read = Self.firstMemberRead(in: infix.rightOperand) {
      context.report(
        .warning, .shortCircuit, at: read,
        "'\(read.trimmedDescription)' may not be read on first evaluation because '\(op)' short-circuits on '\(infix.leftOperand.trimmedDescription)', so tracking never registers it; read it into a local before the condition")
      return
    }
    // Keep looking inside: `(a.b || c) && flag` etc.
    checkOperands(infix.leftOperand)
    checkOperands(infix.rightOperand)
  }

  /// Whether an expression involves no member reads: identifiers, boolean
  /// literals, `!`, parentheses and `&&`/`||` of those.
  static func isPlain(_ expression: ExprSyntax) -> Bool {
    let expression = unparenthesized(expression)
    if expression.is(BooleanLiteralExprSyntax.self) { return true }
    if let reference = expression.as(DeclReferenceExprSyntax.self) {
      return reference.baseName.tokenKind != .keyword(.self)
    }
    if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "!" {
      return isPlain(prefix.expression)
    }
    if let infix = expression.as(InfixOperatorExprSyntax.self),
      let op = infix.operator.as(BinaryOperatorExprSyntax.self)?.operator.text,
      op == "&&" || op == "||"
    {
      return isPlain(infix.leftOperand) && isPlain(infix.rightOperand)
    }
    return false
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
