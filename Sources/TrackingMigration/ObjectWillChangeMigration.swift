import SwiftSyntax

/// Handles every use of `objectWillChange`, which no longer exists once a class
/// uses the macro.
///
/// - `objectWillChange.send()` in the `willSet`/`didSet` of a stored property: the
///   property stays tracked (see ``ModelPropertyMigration``), so the call is removed,
///   and the observer with it when nothing else is left in it.
/// - `objectWillChange.send()` in a method that only changes the object's own stored
///   properties (which stay tracked): removed.
/// - The forwarding idiom `child.objectWillChange.sink { [weak self] _ in
///   self?.objectWillChange.send() }` for a migrated `child`: removed, since views
///   reading `parent.child.x` now track `x` directly.
/// - Anything else is reported with what to do instead.
enum ObjectWillChangeMigration {
  static func migrate(_ node: DeclReferenceExprSyntax, in context: FileContext) {
    guard node.baseName.text == "objectWillChange" else { return }
    if let member = node.parent?.as(MemberAccessExprSyntax.self), member.declName.id == node.id, member.base == nil {
      return  // `.objectWillChange`: an implicit member (an enum case), not the publisher.
    }
    let index = context.index
    let owner = SyntaxQueries.enclosingTypeName(of: node)
    let ownerIsMigrated = owner.map(index.isMigrated) ?? false

    if let forwarding = Forwarding(containing: node, index: context.index) {
      if forwarding.childReference.id == node.id { context.remove(forwarding.statement) }
      context.converted(node)
      return
    }
    if ownerIsMigrated, let owner, let announcement = Announcement(node) {
      switch announcement.place {
      case .observer(let accessor, _):
        removeFromObserver(announcement.call, accessor: accessor, in: context)
        context.converted(node)
        return
      case .body(let body):
        let effects = BodyEffects.of(body)
        let stored = index.storedProperties(visibleIn: owner)
        if effects.changesOnly(stored) {
          if let statement = announcement.call.parent?.as(CodeBlockItemSyntax.self) {
            context.remove(StatementRemoval.outermostEmptied(by: statement))
            context.converted(node)
            return
          }
        }
        let tracked = effects.writtenRoots.intersection(stored).sorted()
        let unseen =
          effects.opaqueCalls.isEmpty
          ? "code the tool cannot follow (a closure, or a write through another object)"
          : effects.opaqueCalls.prefix(3).map { "'\($0)'" }.joined(separator: ", ")
        let trackedText =
          tracked.isEmpty ? "" : " changes to " + tracked.map { "'\($0)'" }.joined(separator: ", ") + " (now tracked) and"
        context.report(
          .warning, .objectWillChange, at: node,
          "'objectWillChange' does not exist after migration to @\(context.target.macroName). This call announced\(trackedText) whatever \(unseen) may change: delete it if that is only this object's stored properties; otherwise make that state a tracked stored property")
        return
      case .closure:
        break
      }
    }
    let advice =
      context.target == .tracking
      ? "to react to changes, use observe { } or withTracking { } on the properties read (in a view, .onChange(of:))"
      : "to react to changes, use withObservationTracking or Observations on the properties read (in a view, .onChange(of:))"
    context.report(
      .warning, .objectWillChange, at: node,
      "'objectWillChange' does not exist after migration to @\(context.target.macroName) (stored properties announce their own changes); \(advice)")
  }

  /// Whether `statement` is `objectWillChange.send()` (or `self.`/`self?.`-qualified).
  static func isAnnouncement(_ statement: CodeBlockItemSyntax) -> Bool {
    guard let call = statement.item.as(FunctionCallExprSyntax.self),
      let send = call.calledExpression.as(MemberAccessExprSyntax.self), send.declName.baseName.text == "send",
      let publisher = send.base
    else { return false }
    let reference =
      publisher.as(DeclReferenceExprSyntax.self) ?? publisher.as(MemberAccessExprSyntax.self)?.declName
    return reference.flatMap(Announcement.init) != nil
  }

  /// Removes `call` from a property observer; the observer goes too if the call
  /// was all it did, and the braces if no observer is left.
  private static func removeFromObserver(_ call: FunctionCallExprSyntax, accessor: AccessorDeclSyntax, in context: FileContext) {
    guard let sendStatement = call.parent?.as(CodeBlockItemSyntax.self) else { return }
    let statement = StatementRemoval.outermostEmptied(by: sendStatement)
    let isOnlyStatement = accessor.body?.statements.count == 1 && statement.parent?.parent?.parent?.id == accessor.id
    guard isOnlyStatement, let list = accessor.parent?.as(AccessorDeclListSyntax.self) else {
      context.remove(statement)
      return
    }
    if list.count == 1, let block = list.parent?.as(AccessorBlockSyntax.self) {
      context.remove(block)
    } else {
      context.remove(accessor)
    }
  }
}

/// `child.objectWillChange.sink { [weak self] _ in self?.objectWillChange.send() }`,
/// possibly assigned, stored with `.store(in:)`, or hopping through
/// `DispatchQueue.main.async { … }`, in a migrated class, for a migrated `child`.
struct Forwarding {
  var statement: CodeBlockItemSyntax
  var childReference: DeclReferenceExprSyntax

  init?(containing node: some SyntaxProtocol, index: ProjectIndex) {
    // The statement of a method or initializer body that contains `node`.
    var current = Syntax(node)
    var statement: CodeBlockItemSyntax?
    while let parent = current.parent {
      if let item = current.as(CodeBlockItemSyntax.self),
        let body = item.parent?.parent?.as(CodeBlockSyntax.self),
        body.parent?.is(FunctionDeclSyntax.self) == true || body.parent?.is(InitializerDeclSyntax.self) == true
      {
        statement = item
        break
      }
      current = parent
    }
    guard let statement, let owner = SyntaxQueries.enclosingTypeName(of: statement), index.isMigrated(owner),
      var expression = statement.item.as(ExprSyntax.self)
    else { return nil }
    if let sequence = expression.as(SequenceExprSyntax.self) {
      let elements = Array(sequence.elements)
      guard elements.count == 3, elements[1].is(AssignmentExprSyntax.self) else { return nil }
      expression = elements[2]
    }
    if let store = expression.as(FunctionCallExprSyntax.self),
      let member = store.calledExpression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "store",
      let base = member.base
    {
      expression = base
    }
    guard let sink = expression.as(FunctionCallExprSyntax.self),
      let sinkMember = sink.calledExpression.as(MemberAccessExprSyntax.self), sinkMember.declName.baseName.text == "sink",
      let publisher = sinkMember.base?.as(MemberAccessExprSyntax.self),
      publisher.declName.baseName.text == "objectWillChange", let child = publisher.base,
      let childType = ExpressionTypeResolver.typeName(of: child, index: index), index.observableTypes.contains(childType),
      let closure = sink.trailingClosure ?? sink.arguments.first(where: { $0.label?.text == "receiveValue" })?.expression.as(ClosureExprSyntax.self),
      Self.onlyForwards(closure)
    else { return nil }
    self.statement = statement
    self.childReference = publisher.declName
  }

  /// Whether a closure's only statement is `self?.objectWillChange.send()`, directly
  /// or inside `DispatchQueue.main.async { … }`.
  private static func onlyForwards(_ closure: ClosureExprSyntax) -> Bool {
    guard closure.statements.count == 1, let only = closure.statements.first?.item.as(ExprSyntax.self) else { return false }
    if let call = only.as(FunctionCallExprSyntax.self), SyntaxQueries.calleeName(of: call) == "async",
      call.calledExpression.trimmedDescription == "DispatchQueue.main.async", call.arguments.isEmpty,
      let inner = call.trailingClosure
    {
      return onlyForwards(inner)
    }
    guard let call = only.as(FunctionCallExprSyntax.self),
      let send = call.calledExpression.as(MemberAccessExprSyntax.self), send.declName.baseName.text == "send",
      let publisher = send.base?.as(MemberAccessExprSyntax.self), publisher.declName.baseName.text == "objectWillChange",
      let base = publisher.base, BodyEffects.isSelf(base)
    else { return false }
    return true
  }
}

extension Forwarding {
  /// Stored properties of `node` that only hold the subscriptions of the forwarding
  /// statements migration removes (`.store(in: &cancellables)`, `forwarding = …`), so
  /// that nothing uses them afterwards: an `AnyCancellable` (or a collection of them)
  /// named nowhere else in the class, and in none of its extensions.
  static func storageOnlyForForwarding(in node: ClassDeclSyntax, index: ProjectIndex) -> [VariableDeclSyntax] {
    let statements = ReferenceFinder.statements(in: node.memberBlock) { Forwarding(containing: $0, index: index)?.statement }
    guard !statements.isEmpty else { return [] }
    let removed = statements.map { $0.position..<$0.endPosition }
    return SyntaxQueries.variableMembers(of: node.memberBlock).filter { variable in
      guard variable.bindings.count == 1, let binding = variable.bindings.first,
        let name = SyntaxQueries.boundName(of: binding),
        (binding.typeAnnotation?.description ?? binding.initializer?.description ?? "").contains("AnyCancellable"),
        !(index.namesReferencedInExtensions[node.name.text]?.contains(name) ?? false)
      else { return false }
      let uses = ReferenceFinder.references(to: name, in: node.memberBlock)
      return !uses.isEmpty && uses.allSatisfy { use in removed.contains { $0.contains(use.position) } }
    }
  }
}

/// Finds references in a piece of syntax.
private final class ReferenceFinder: SyntaxVisitor {
  private let match: (DeclReferenceExprSyntax) -> Bool
  private(set) var found: [DeclReferenceExprSyntax] = []

  private init(_ match: @escaping (DeclReferenceExprSyntax) -> Bool) {
    self.match = match
    super.init(viewMode: .sourceAccurate)
  }

  override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
    if match(node) { found.append(node) }
    return .visitChildren
  }

  /// Every `name` (or `self.name`) in `node`.
  static func references(to name: String, in node: some SyntaxProtocol) -> [DeclReferenceExprSyntax] {
    let finder = ReferenceFinder { $0.baseName.text == name }
    finder.walk(node)
    return finder.found
  }

  /// The distinct statements `statement(for:)` finds from the `objectWillChange`
  /// references in `node`.
  static func statements(
    in node: some SyntaxProtocol, _ statement: (DeclReferenceExprSyntax) -> CodeBlockItemSyntax?
  ) -> [CodeBlockItemSyntax] {
    let finder = ReferenceFinder { $0.baseName.text == "objectWillChange" }
    finder.walk(node)
    var seen: Set<SyntaxIdentifier> = []
    return finder.found.compactMap(statement).filter { seen.insert($0.id).inserted }
  }
}

/// Removing a statement without leaving an empty `if` behind.
enum StatementRemoval {
  /// `statement`, or the `if` around it when it is all that `if` does (no `else`, and
  /// conditions that call nothing), going outwards: the statement to remove so that
  /// removing `statement` leaves no `if flag { }`.
  static func outermostEmptied(by statement: CodeBlockItemSyntax) -> CodeBlockItemSyntax {
    var current = statement
    while let list = current.parent?.as(CodeBlockItemListSyntax.self), list.count == 1,
      let block = list.parent?.as(CodeBlockSyntax.self),
      let ifExpression = block.parent?.as(IfExprSyntax.self), ifExpression.body.id == block.id,
      ifExpression.elseBody == nil, !containsEffects(ifExpression.conditions),
      let enclosing = ifExpression.parent?.as(ExpressionStmtSyntax.self)?.parent?.as(CodeBlockItemSyntax.self)
        ?? ifExpression.parent?.as(CodeBlockItemSyntax.self)
    {
      current = enclosing
    }
    return current
  }

  /// Whether evaluating `node` may do something: it calls, awaits, tries or has a closure.
  private static func containsEffects(_ node: some SyntaxProtocol) -> Bool {
    node.tokens(viewMode: .sourceAccurate).contains { token in
      switch token.tokenKind {
      case .keyword(.try), .keyword(.await), .leftBrace: true
      case .leftParen: token.parent?.is(FunctionCallExprSyntax.self) ?? false
      default: false
      }
    }
  }
}
