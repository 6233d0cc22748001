import SwiftSyntax

/// Lint: the `onChange` closure of one-shot tracking reads a tracked property.
///
/// `withTracking(_:onChange:)` and `withObservationTracking(_:onChange:)` call
/// `onChange` when a tracked property is *about to* change (willSet semantics).
/// Reading that property inside `onChange` therefore returns the old value — a
/// common surprise. The rule reports reads in `onChange` of expressions that
/// the `apply` closure also read (member chains like `model.value`, compared
/// without a leading `self.`, and bare identifiers).
final class OnChangeOldValueRule: SyntaxVisitor {
  private let context: FileContext

  init(context: FileContext) {
    self.context = context
    super.init(viewMode: .sourceAccurate)
  }

  override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
    guard let name = SyntaxQueries.calleeName(of: node), LintRules.trackingFunctions.contains(name),
      let (apply, onChange) = Self.closures(of: node)
    else { return .visitChildren }
    let tracked = ReadCollector.reads(in: apply)
    var reported: Set<String> = []
    for (read, key) in ReadCollector.readNodes(in: onChange) where tracked.contains(key) {
      guard reported.insert(key).inserted else { continue }
      context.report(
        .warning, .onChangeReadsOldValue, at: read,
        "'\(read.trimmedDescription)' is read in onChange, which runs before the tracked value changes (willSet), so it sees the old value; read the new value after the change instead (for example by re-tracking)")
    }
    return .visitChildren
  }

  /// The apply and onChange closures of a tracking call, in any call shape.
  static func closures(of call: FunctionCallExprSyntax) -> (ClosureExprSyntax, ClosureExprSyntax)? {
    let apply =
      call.arguments.first(where: { $0.label == nil })?.expression.as(ClosureExprSyntax.self)
      ?? call.trailingClosure
    let onChange =
      call.arguments.first(where: { $0.label?.text == "onChange" })?.expression.as(ClosureExprSyntax.self)
      ?? call.additionalTrailingClosures.first(where: { $0.label.text == "onChange" })?.closure
    guard let apply, let onChange, apply.id != onChange.id else { return nil }
    return (apply, onChange)
  }
}

/// Finds property reads: outermost member chains and bare identifiers that
/// are not function names.
private final class ReadCollector: SyntaxVisitor {
  private(set) var found: [(Syntax, String)] = []

  static func reads(in closure: ClosureExprSyntax) -> Set<String> {
    Set(readNodes(in: closure).map(\.1))
  }

  static func readNodes(in closure: ClosureExprSyntax) -> [(Syntax, String)] {
    let collector = ReadCollector(viewMode: .sourceAccurate)
    collector.walk(closure.statements)
    return collector.found
  }

  override func visit(_ node: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind {
    guard let base = node.base, !isCallee(Syntax(node)) else { return .visitChildren }
    if let reference = base.as(DeclReferenceExprSyntax.self), SyntaxQueries.startsUppercase(reference.baseName.text) {
      return .skipChildren
    }
    found.append((Syntax(node), Self.key(node.trimmedDescription)))
    return .visitChildren
  }

  override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
    let parent = node.parent
    if let member = parent?.as(MemberAccessExprSyntax.self) {
      // Part of a chain: the chain itself is recorded instead.
      if member.declName.id == node.id || member.base?.id == node.id { return .skipChildren }
    }
    let name = node.baseName.text
    guard node.baseName.tokenKind != .keyword(.self), !name.hasPrefix("$"),
      !SyntaxQueries.startsUppercase(name), !isCallee(Syntax(node))
    else { return .skipChildren }
    found.append((Syntax(node), name))
    return .skipChildren
  }

  private func isCallee(_ node: Syntax) -> Bool {
    node.parent?.as(FunctionCallExprSyntax.self)?.calledExpression.id == node.id
  }

  private static func key(_ text: String) -> String {
    text.hasPrefix("self.") ? String(text.dropFirst(5)) : text
  }
}
