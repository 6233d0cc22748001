import SwiftSyntax
import SwiftSyntaxBuilder

/// Where a member is declared, as far as `#if` goes.
enum Presence: Equatable {
  /// Not declared.
  case never
  /// Declared outside any `#if`, or in every configuration.
  case always
  /// Declared where one of these paths of `#if` conditions holds (each path: all of
  /// its conditions).
  case when([[String]])

  func or(_ other: Presence) -> Presence {
    switch (self, other) {
    case (.always, _), (_, .always): .always
    case (.never, let presence), (let presence, .never): presence
    case (.when(let a), .when(let b)): .when(a + b)
    }
  }

  /// The `#if` condition under which the member is missing (for a generated stand-in),
  /// or `nil` when it is declared unconditionally or not at all.
  var absenceCondition: String? {
    guard case .when(let paths) = self else { return nil }
    let declared = paths.map { $0.joined(separator: " && ") }
    return "!" + Presence.term(declared.joined(separator: " || "))
  }

  /// `condition` as an operand of `!`, `&&` or `||`: parenthesized unless it is a
  /// single name or call (`DEBUG`, `os(iOS)`).
  static func term(_ condition: String) -> String {
    let isAtom = !condition.contains(" ") && !condition.hasPrefix("!")
    return isAtom ? condition : "(\(condition))"
  }
}

extension DeclSyntax {
  /// This declaration, inside an `#if` that leaves it out wherever the class declares
  /// its own (`presence`); as is when the class declares none.
  func unless(_ presence: Presence) -> DeclSyntax {
    guard let condition = presence.absenceCondition else { return self }
    return """
      #if \(raw: condition)
      \(self)
      #endif
      """
  }
}
