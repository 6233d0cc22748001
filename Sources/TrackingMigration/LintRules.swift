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
  /// Calls that start observing when made, for ``InitializerObservationRule``.
  static let observationStarters: Set<String> = [
    "withTracking", "withCancellableTracking", "withObservationTracking", "observe", "Observations",
  ]
}
