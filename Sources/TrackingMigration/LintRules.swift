import SwiftOperators
import SwiftSyntax

/// Runs the lint rules, which report observation pitfalls without rewriting.
///
/// The rules work on an operator-folded copy of the tree (so `a && b.c` is a
/// real binary expression). Folding does not change any token, so byte
/// positions — and therefore reported locations — are those of the original.
enum LintRules {
  static func run(on tree: SourceFileSyntax, context: FileContext) {
    let folded = OperatorTable.standardOperators.foldAll(tree) { _ in }
    ShortCircuitReadRule(context: context).walk(folded)
    InitializerObservationRule(context: context).walk(folded)
    OnChangeOldValueRule(context: context).walk(folded)
  }

  /// Functions that start observation tracking, across both observation systems.
  static let trackingFunctions: Set<String> = ["withTracking", "withCancellableTracking", "withObservationTracking"]
  /// Calls whose closure runs under tracking and runs again when what it read
  /// changes: one-shot tracking (the first closure), continuous observation,
  /// derived values and sequences, in this library and in Apple's Observation.
  static let trackedClosureCalls: Set<String> =
    trackingFunctions.union([
      "observe", "observeCoalesced", "Derived", "TrackedValues", "untilFinished", "TrackingPublisher",
      "Observations", "withContinuousObservation",
    ])
  /// Calls that start observing when made, for ``InitializerObservationRule``.
  static let observationStarters: Set<String> = [
    "withTracking", "withCancellableTracking", "withObservationTracking", "observe", "observeCoalesced",
    "Observations", "withContinuousObservation",
  ]

  /// Whether `call` is one of `names`, called as the free functions or types they
  /// are: `observe { … }`, `Derived { … }`, `TrackedValues.untilFinished { … }` — not
  /// a method of the same name on some object, such as KVO's `object.observe(\.key)`.
  static func isCall(_ call: FunctionCallExprSyntax, to names: Set<String>) -> Bool {
    guard let name = SyntaxQueries.calleeName(of: call), names.contains(name) else { return false }
    if call.calledExpression.is(DeclReferenceExprSyntax.self) { return true }
    guard let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base else { return false }
    // `TrackedValues.untilFinished`, `Tracking.observe`: a type or module, not an object.
    return base.as(DeclReferenceExprSyntax.self).map { SyntaxQueries.startsUppercase($0.baseName.text) } ?? false
  }
}
