import SwiftSyntax

/// `$property`, the Combine publisher of a `@Published` property, and the
/// `Published<T>.Publisher` type: both are gone once the property is tracked.
///
/// Under `--target tracking` a pipeline is rewritten to `TrackingCombine`'s
/// key-path publisher when that is a faithful translation:
///
/// ```swift
/// $query.removeDuplicates().debounce(for: .milliseconds(250), scheduler: RunLoop.main).sink { … }
/// // becomes
/// publisher(for: \.query).prepend(query).removeDuplicates().debounce(for: .milliseconds(250), scheduler: RunLoop.main).sink { … }
/// ```
///
/// `$x` emits the current value when subscribed, then each new value *before* it
/// is stored; `publisher(for: \.x)` emits each new value *after* it is stored, and
/// nothing for a write of an equal value. So the rewrite happens only when:
/// - the pipeline is subscribed where it is built (it reaches `sink`, `assign(to:on:)`
///   or is the publisher of `.onReceive(_:perform:)`), so that `.prepend(x)` sees
///   the value `$x` would have sent first — or it starts with `dropFirst()`, which
///   is then dropped, as `publisher(for:)` sends no initial value;
/// - no code can observe the order: before the first asynchronous hop (`debounce`,
///   `throttle`, `receive(on:)`, `delay`) there are only `removeDuplicates()` and
///   key-path `map`s, or, with no hop, the closures that receive values make no
///   calls and do not read the property.
///
/// Every rewrite is noted (a write of an equal value no longer emits); every other
/// use is reported with the replacement to consider.
enum PublisherMigration {
  static func migrate(_ node: DeclReferenceExprSyntax, in context: FileContext) {
    guard node.baseName.text.hasPrefix("$"), SiteScanner.dollarKind(of: node, index: context.index) == .publisher else {
      return
    }
    let property = String(node.baseName.text.dropFirst())
    var publisher = ExprSyntax(node)
    if let member = node.parent?.as(MemberAccessExprSyntax.self), member.declName.id == node.id {
      publisher = ExprSyntax(member)
    }
    let base = publisher.as(MemberAccessExprSyntax.self)?.base
    if let inOut = publisher.parent?.as(InOutExprSyntax.self), inOut.expression.id == publisher.id {
      context.report(
        .warning, .publisherUse, at: node,
        "'assign(to: &$\(property))' needs a @Published property, which '\(property)' no longer is; use '.sink { [weak self] in self?.\(property) = $0 }' (or assign(to: \\.\(property), on: self), which retains self)")
      return
    }
    let replacement = (base.map { $0.trimmedDescription + "." } ?? "") + "publisher(for: \\.\(property))"
    guard context.target == .tracking else {
      context.report(
        .warning, .publisherUse, at: node,
        "'$\(property)' is the Combine publisher of a @Published property, which no longer exists after migration to @Observable; observe the property instead (Observations { \(base.map { $0.trimmedDescription + "." } ?? "self.")\(property) } on iOS 26 and later, withObservationTracking, or .onChange(of:) in a view)")
      return
    }
    switch Pipeline(from: publisher, property: property, base: base) {
    case .faithful(let pipeline):
      context.replace(publisher, with: replacement)
      if let dropFirst = pipeline.dropFirst {
        context.remove(dropFirst.start..<dropFirst.end)
      } else if let current = pipeline.currentValue {
        context.insert(".prepend(\(current))", atOffset: publisher.endPositionBeforeTrailingTrivia.utf8Offset)
      }
      context.extraImports.insert("TrackingCombine")
      context.converted(node)
      context.report(
        .note, .publisherConverted, at: node,
        "'$\(property)' now comes from TrackingCombine's publisher(for: \\.\(property)) (add the TrackingCombine product to this target): it emits after the value is stored, where @Published emitted just before, and a write of an equal value emits nothing")
    case .unfaithful(let reason):
      context.report(
        .warning, .publisherUse, at: node,
        "'$\(property)' is the Combine publisher of a @Published property, which no longer exists after migration; \(reason). Consider '\(replacement)' from TrackingCombine (emits after each change, no initial value: add '.prepend(…)' for one), or observe { } / withTracking { }")
    }
  }

  /// `Published<T>.Publisher` and `Published<T>` written as types.
  static func migrate(_ type: IdentifierTypeSyntax, in context: FileContext) {
    guard type.name.text == "Published", type.parent?.is(AttributeSyntax.self) != true else { return }
    let advice =
      context.target == .tracking
      ? "use AnyPublisher<T, Never> fed by model.publisher(for: \\.property).eraseToAnyPublisher() (TrackingCombine)"
      : "pass the model (or a closure that reads the property) and observe it with Observations or withObservationTracking"
    context.report(
      .warning, .publisherUse, at: type,
      "'\(type.trimmedDescription)' is the publisher type of a @Published property; migrated properties have none: \(advice)")
  }
}

/// How a `$x` publisher is used, as far as faithfulness goes.
private enum Pipeline {
  struct Faithful {
    /// The `.dropFirst()` to remove (byte range), if the pipeline starts with one.
    var dropFirst: (start: Int, end: Int)?
    /// The expression for the current value to prepend, when there is no `dropFirst()`.
    var currentValue: String?
  }

  case faithful(Faithful)
  case unfaithful(String)

  /// Operators that deliver values later, on a scheduler: code after them runs
  /// after the new value is stored in both cases.
  static let hops: Set<String> = ["debounce", "throttle", "receive", "delay"]

  init(from publisher: ExprSyntax, property: String, base: ExprSyntax?) {
    // The calls chained on the publisher: `$x.a(…).b(…)`.
    var operators: [(name: String, call: FunctionCallExprSyntax)] = []
    var current = Syntax(publisher)
    while let member = current.parent?.as(MemberAccessExprSyntax.self), member.base?.id == current.id,
      let call = member.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.id == member.id
    {
      operators.append((member.declName.baseName.text, call))
      current = Syntax(call)
    }
    let outermost = current

    var faithful = Faithful()
    var rest = operators[...]
    if let first = rest.first, first.name == "dropFirst", first.call.arguments.isEmpty, first.call.trailingClosure == nil,
      let member = first.call.calledExpression.as(MemberAccessExprSyntax.self)
    {
      faithful.dropFirst = (member.period.positionAfterSkippingLeadingTrivia.utf8Offset, first.call.endPositionBeforeTrailingTrivia.utf8Offset)
      rest = rest.dropFirst()
    }

    // Who receives the values: a subscriber in the chain, or `.onReceive(chain)`.
    let subscriberIndex = rest.firstIndex { ["sink", "assign"].contains($0.name) }
    var consumers: [ClosureExprSyntax] = []
    if let subscriberIndex {
      let subscriber = rest[subscriberIndex]
      if subscriber.name == "assign", subscriber.call.arguments.first?.label?.text != "to"
        || subscriber.call.arguments.count != 2
      {
        self = .unfaithful("it is assigned to another @Published property, which migration removes too")
        return
      }
      consumers = Self.closures(of: subscriber.call)
    } else if let receive = Self.onReceive(around: outermost) {
      guard faithful.dropFirst != nil else {
        self = .unfaithful("'.onReceive' subscribes when SwiftUI decides, so the value it starts with cannot be reproduced; use '.onChange(of: \(base.map { $0.trimmedDescription + "." } ?? "")\(property), initial: true)' or keep a dropFirst()")
        return
      }
      consumers = Self.closures(of: receive)
    } else {
      self = .unfaithful("the publisher is stored or passed on, so its type and its first value would change")
      return
    }

    if faithful.dropFirst == nil {
      guard let base = base.map({ $0.trimmedDescription }) ?? Optional(""), Self.isPure(base) else {
        self = .unfaithful("its object ('\(base?.trimmedDescription ?? "")') cannot be read again safely to supply the first value")
        return
      }
      faithful.currentValue = base.isEmpty ? property : "\(base).\(property)"
    }

    // Order: an asynchronous hop first, or only value-preserving steps and closures
    // that cannot tell whether the value is stored yet.
    let end = subscriberIndex ?? rest.endIndex
    var sawHop = false
    for step in rest[rest.startIndex..<end] {
      if Self.hops.contains(step.name) {
        sawHop = true
        break
      }
      let isValueOnly =
        (step.name == "removeDuplicates" && step.call.arguments.isEmpty && step.call.trailingClosure == nil)
        || (["map", "compactMap"].contains(step.name) && step.call.arguments.count == 1
          && step.call.arguments.first?.expression.is(KeyPathExprSyntax.self) == true)
      guard isValueOnly else {
        self = .unfaithful("'\(step.name)' runs before the new value is stored with @Published and after it with observation, and the tool cannot tell whether that matters")
        return
      }
    }
    if !sawHop {
      for closure in consumers where !Self.isOrderInsensitive(closure, property: property) {
        self = .unfaithful("the code that receives each value runs before the value is stored with @Published and after it with observation, and it makes calls (or reads '\(property)') that could tell the difference")
        return
      }
    }
    self = .faithful(faithful)
  }

  /// The call `.onReceive(expression, perform:)` whose first argument is `expression`.
  private static func onReceive(around expression: Syntax) -> FunctionCallExprSyntax? {
    guard let argument = expression.parent?.as(LabeledExprSyntax.self), argument.label == nil,
      let call = argument.parent?.parent?.as(FunctionCallExprSyntax.self), call.arguments.first?.id == argument.id,
      SyntaxQueries.calleeName(of: call) == "onReceive"
    else { return nil }
    return call
  }

  private static func closures(of call: FunctionCallExprSyntax) -> [ClosureExprSyntax] {
    call.arguments.compactMap { $0.expression.as(ClosureExprSyntax.self) } + (call.trailingClosure.map { [$0] } ?? [])
  }

  /// Identifiers, `self` and member accesses only: reading it twice is harmless.
  private static func isPure(_ text: String) -> Bool {
    text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }
  }

  /// A closure that makes no calls (other than initializers) and does not read the
  /// property cannot tell whether the new value is stored yet.
  private static func isOrderInsensitive(_ closure: ClosureExprSyntax, property: String) -> Bool {
    // A parameter of the same name hides the property.
    let parameters: [String] =
      switch closure.signature?.parameterClause {
      case .simpleInput(let names): names.map(\.name.text)
      case .parameterClause(let clause): clause.parameters.map { ($0.secondName ?? $0.firstName).text }
      case nil: []
      }
    if parameters.contains(property) { return OrderSensitivityFinder.makesCalls(closure) == false }
    let finder = OrderSensitivityFinder(property: property)
    finder.walk(closure.statements)
    return !finder.isSensitive
  }
}

private final class OrderSensitivityFinder: SyntaxVisitor {
  let property: String?
  var isSensitive = false

  /// Whether the closure makes a call other than an initializer.
  static func makesCalls(_ closure: ClosureExprSyntax) -> Bool {
    let finder = OrderSensitivityFinder(property: nil)
    finder.walk(closure.statements)
    return finder.isSensitive
  }

  init(property: String?) {
    self.property = property
    super.init(viewMode: .sourceAccurate)
  }

  override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
    if let reference = node.calledExpression.as(DeclReferenceExprSyntax.self),
      SyntaxQueries.startsUppercase(reference.baseName.text)
    {
      return .visitChildren  // `Type(…)`: an initializer.
    }
    isSensitive = true
    return .skipChildren
  }

  override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
    if node.baseName.text == property { isSensitive = true }
    return .visitChildren
  }
}
