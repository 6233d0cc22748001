import SwiftSyntax

/// Lint: observation started inside an initializer.
///
/// SwiftUI may evaluate `@State var model = Model()` — and so `Model.init` —
/// every time the owning view is re-created, discarding all but the first
/// instance. Observation started in that initializer (`withTracking`,
/// `withObservationTracking`, `observe`, `Observations`) keeps running for the
/// discarded instances: a leak and duplicated side effects. Observation should
/// be bound to a lifetime instead, e.g. started from `.task { }`.
///
/// Reported as a warning for types held in `@State`/`@StateObject` anywhere in
/// the inputs, and as a note for other types (which might be held in `@State`
/// in code the tool cannot see).
final class InitializerObservationRule: SyntaxVisitor {
  private let context: FileContext

  init(context: FileContext) {
    self.context = context
    super.init(viewMode: .sourceAccurate)
  }

  override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind {
    guard let body = node.body, let typeName = SyntaxQueries.enclosingTypeName(of: node) else {
      return .skipChildren
    }
    let finder = CallFinder(names: LintRules.observationStarters)
    finder.walk(body)
    let heldInState = context.index.stateHeldTypes.contains(typeName)
    for (call, name) in finder.calls {
      if heldInState {
        context.report(
          .warning, .observationInInit, at: call,
          "'\(name)' starts observation in the initializer of '\(typeName)', which is held in @State; SwiftUI may call this initializer many times and the observation of discarded instances keeps running; start it from a lifetime such as .task { } instead")
      } else {
        context.report(
          .note, .observationInInit, at: call,
          "'\(name)' starts observation in an initializer; if '\(typeName)' is ever held in @State, SwiftUI may create it many times; prefer binding observation to a lifetime such as .task { }")
      }
    }
    return .skipChildren
  }
}

/// Collects calls to the free functions or types with the given names (`f(...)`,
/// `F { }`, `Type.f(...)`; not `object.f(...)`).
final class CallFinder: SyntaxVisitor {
  private let names: Set<String>
  private(set) var calls: [(FunctionCallExprSyntax, String)] = []

  init(names: Set<String>) {
    self.names = names
    super.init(viewMode: .sourceAccurate)
  }

  override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
    if LintRules.isCall(node, to: names), let name = SyntaxQueries.calleeName(of: node) {
      calls.append((node, name))
    }
    return .visitChildren
  }
}
