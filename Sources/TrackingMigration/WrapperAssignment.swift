import SwiftSyntax

/// Assignments to a property wrapper's backing storage in an initializer:
/// `_model = StateObject(wrappedValue: Model())`, `self._title = Published(initialValue: "")`.
enum WrapperAssignment {
  /// The wrapped property whose backing storage `call` is assigned to: `x` for
  /// `_x = call` or `self._x = call`.
  static func backingProperty(assignedBy call: FunctionCallExprSyntax) -> String? {
    guard let target = SyntaxQueries.assignmentTarget(of: call),
      let name = SyntaxQueries.assignedPropertyName(target), name.hasPrefix("_"), name.count > 1
    else { return nil }
    return String(name.dropFirst())
  }
}
