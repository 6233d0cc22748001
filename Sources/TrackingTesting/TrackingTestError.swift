/// Where a test helper was called, for failure messages.
public struct TrackingTestLocation: Sendable, Hashable, CustomStringConvertible {
  /// The file's module-qualified name (`#fileID`).
  public let fileID: String
  /// The file's full path (`#filePath`).
  public let filePath: String
  /// The line of the call.
  public let line: Int
  /// The column of the call.
  public let column: Int

  /// Creates a location; the helpers fill it in from their call site.
  public init(fileID: String, filePath: String, line: Int, column: Int) {
    self.fileID = fileID
    self.filePath = filePath
    self.line = line
    self.column = column
  }

  /// `fileID:line:column`.
  public var description: String { "\(fileID):\(line):\(column)" }
}

/// Why a ``nextChange(of:_:timeout:clock:isolation:fileID:filePath:line:column:)`` or
/// ``expectNoChange(of:_:during:fileID:filePath:line:column:)`` call failed.
///
/// Its ``description`` is a complete sentence saying what was expected, meant to be
/// shown as is by the test framework.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, macCatalyst 16, *)
public enum TrackingTestError: Error, Sendable, Equatable, CustomStringConvertible {
  /// No change of anything the expression read happened within `after`.
  case timedOut(expression: String?, after: Duration, location: TrackingTestLocation)
  /// The expression read no tracked property, so no change of it could be awaited or
  /// ruled out.
  case nothingTracked(expression: String?, location: TrackingTestLocation)
  /// A property the expression read changed, where no change was expected.
  /// `change` names the property when its key path is known.
  case unexpectedChange(expression: String?, change: String, location: TrackingTestLocation)
  /// Observations, derived values or scopes started in an ``expectNoLeaks(fileID:filePath:line:column:_:)``
  /// block were still alive after it: one line each, saying what it is, where it was
  /// started and what it reads or owns.
  case stillAlive([String], location: TrackingTestLocation)

  /// A message saying what was awaited or ruled out, and where.
  public var description: String {
    switch self {
    case .timedOut(let expression, let after, let location):
      "Timed out after \(after) waiting for a change of \(Self.name(expression)) (\(location))."
    case .nothingTracked(let expression, let location):
      "\(Self.name(expression).capitalizedFirst) read no tracked property, so it can never change (\(location))."
    case .unexpectedChange(let expression, let change, let location):
      "Expected no change of \(Self.name(expression)), but \(change) changed (\(location))."
    case .stillAlive(let things, let location):
      "Expected nothing started in the block to be alive after it (\(location)), but \(things.count) "
        + (things.count == 1 ? "is" : "are") + ":\n" + things.map { "- " + $0 }.joined(separator: "\n")
    }
  }

  private static func name(_ expression: String?) -> String {
    expression.map { "'\($0)'" } ?? "the tracked expression"
  }
}

extension String {
  fileprivate var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
