/// One input file: its path (used in reports) and its full text.
public struct SourceFile: Sendable, Hashable {
  /// The path shown in findings and diffs.
  public var path: String
  /// The complete file contents.
  public var text: String

  /// Creates an input file.
  public init(path: String, text: String) {
    self.path = path
    self.text = text
  }
}

/// What happened to one input file.
public struct FileOutcome: Sendable, Hashable {
  /// The input's path.
  public var path: String
  /// The text as it was read.
  public var original: String
  /// The text after migration; equal to ``original`` when nothing changed or
  /// the file could not be parsed.
  public var migrated: String
  /// `false` when the file has syntax errors; such a file is never modified.
  public var isParsed: Bool

  /// Whether migration changed the file.
  public var hasChanges: Bool { migrated != original }
}

/// The result of migrating a set of files together.
public struct MigrationResult: Sendable {
  /// One outcome per input, in input order.
  public var files: [FileOutcome]
  /// All findings, ordered by input file, then line and column.
  public var findings: [Finding]
  /// Sites found, converted and reported.
  public var summary = MigrationSummary()

  /// Files whose text changed.
  public var changedFiles: [FileOutcome] { files.filter(\.hasChanges) }
  /// Files that could not be parsed (and were left untouched).
  public var unparsedFiles: [FileOutcome] { files.filter { !$0.isParsed } }
  /// Whether a person still has work to do: any warning or error.
  public var needsManualWork: Bool { findings.contains { $0.severity >= .warning } }
}
