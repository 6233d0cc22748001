import Foundation

/// The machine-readable report printed by `--report json`.
///
/// Field names are stable: `changedFiles`, `unparsedFiles`, `findings` (each with
/// `file`, `line`, `column`, `severity`, `rule`, `message`) and `summary` (see
/// ``MigrationSummary``).
public struct JSONReport: Codable, Sendable, Equatable {
  /// Paths of files that were (or, in dry-run/check mode, would be) changed.
  public var changedFiles: [String]
  /// Paths of files that could not be parsed and were left untouched.
  public var unparsedFiles: [String]
  /// Every finding, in the same order as the text output.
  public var findings: [Finding]
  /// Sites found, converted and reported.
  public var summary: MigrationSummary

  /// Builds the report for a migration result.
  public init(result: MigrationResult) {
    changedFiles = result.changedFiles.map(\.path)
    unparsedFiles = result.unparsedFiles.map(\.path)
    findings = result.findings
    summary = result.summary
  }

  /// Pretty-printed JSON with sorted keys, terminated by a newline.
  public func encoded() -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let data = (try? encoder.encode(self)) ?? Data("{}".utf8)
    return String(decoding: data, as: UTF8.self) + "\n"
  }
}
