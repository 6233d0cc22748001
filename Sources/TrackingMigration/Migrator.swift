import SwiftDiagnostics
import SwiftParser
import SwiftParserDiagnostics
import SwiftSyntax

/// Migrates `ObservableObject` code to macro-based observation and lints
/// observation pitfalls.
///
/// The migration runs in two passes: the first parses every file and builds a
/// project-wide index (which classes are `ObservableObject`s, which views use
/// `$x` bindings, which types live in `@State`); the second computes byte-level
/// edits per file. Because edits are applied to the original text, everything
/// the rules don't touch is preserved exactly, and because every rule only
/// fires on pre-migration constructs, running the migrator on its own output
/// changes nothing.
///
/// ```swift
/// let result = Migrator(target: .tracking).migrate([
///   SourceFile(path: "Book.swift", text: bookSource),
///   SourceFile(path: "BookView.swift", text: viewSource),
/// ])
/// ```
public struct Migrator: Sendable {
  /// Which macro to migrate to.
  public var target: MigrationTarget
  /// Whether to run the lint rules (short-circuit reads, observation in
  /// initializers, onChange reading old values).
  public var lints: Bool

  /// Creates a migrator for `target`, optionally without lint rules.
  public init(target: MigrationTarget = .tracking, lints: Bool = true) {
    self.target = target
    self.lints = lints
  }

  /// Migrates `sources` together and returns the new texts and all findings.
  ///
  /// `projectFiles` are package manifests (`Package.swift`) and Xcode projects
  /// (`project.pbxproj`) that are not among `sources`: with the manifests among
  /// `sources`, their deployment targets are checked against what migrated code needs.
  public func migrate(_ sources: [SourceFile], projectFiles: [SourceFile] = []) -> MigrationResult {
    var index = ProjectIndex()
    var trees: [SourceFileSyntax?] = []
    var findings: [[Finding]] = []
    for source in sources {
      let tree = Parser.parse(source: source.text)
      if let error = Self.firstSyntaxError(in: tree, path: source.path) {
        trees.append(nil)
        findings.append([error])
      } else {
        index.add(tree)
        trees.append(tree)
        findings.append([])
      }
    }
    index.finish()

    var outcomes: [FileOutcome] = []
    var summary = MigrationSummary()
    summary.files = sources.count
    for (position, source) in sources.enumerated() {
      guard let tree = trees[position] else {
        summary.unparsedFiles += 1
        outcomes.append(FileOutcome(path: source.path, original: source.text, migrated: source.text, isParsed: false))
        continue
      }
      let context = FileContext(path: source.path, tree: tree, index: index, target: target)
      FileMigrator.run(on: tree, context: context)
      if lints { LintRules.run(on: tree, context: context) }
      var migrated = context.edits.applied(to: source.text)
      if migrated != source.text, let error = Self.firstSyntaxError(in: Parser.parse(source: migrated), path: source.path) {
        // A bug in a rule: keep the file as it was, and count all its sites as reported.
        context.report(
          .error, .internalError, at: tree, covering: tree,
          "the migrated text would not parse (\(error.message)); the file was left unchanged: please report this")
        migrated = source.text
      }
      Self.account(for: SiteScanner.sites(in: tree, index: index), in: context, into: &summary)
      let fileFindings = context.findings
      findings[position].append(contentsOf: fileFindings.sorted { ($0.line, $0.column) < ($1.line, $1.column) })
      outcomes.append(FileOutcome(path: source.path, original: source.text, migrated: migrated, isParsed: true))
    }
    // Migrated models need Observation; with --target tracking, views that read them do.
    var allFindings = findings.flatMap { $0 }
    if !index.observableTypes.isEmpty, target == .apple || !index.viewTypes.isEmpty {
      allFindings += DeploymentTarget.findings(in: sources + projectFiles, target: target)
    }
    return MigrationResult(files: outcomes, findings: allFindings, summary: summary)
  }

  /// Sorts every site of a file into converted, reported or unhandled, and reports
  /// the unhandled ones so that none is dropped silently.
  static func account(for sites: [Site], in context: FileContext, into summary: inout MigrationSummary) {
    for site in sites {
      if context.isReported(site.offset) {
        summary.add(site.kind, .reported)
      } else if context.convertedSites.contains(site.offset) {
        summary.add(site.kind, .converted)
      } else if context.keptSites.contains(site.offset) {
        summary.add(site.kind, .kept)
      } else {
        summary.add(site.kind, .unhandled)
        context.report(
          .warning, .unhandledSite, at: AbsolutePosition(utf8Offset: site.offset),
          "the migration did not handle this \(site.kind.description); check it by hand (and please report it)")
      }
    }
  }

  /// The first syntax error of `tree`, as a finding, or `nil` if it parses cleanly.
  private static func firstSyntaxError(in tree: SourceFileSyntax, path: String) -> Finding? {
    guard tree.hasError else { return nil }
    let converter = SourceLocationConverter(fileName: path, tree: tree)
    let diagnostics = ParseDiagnosticsGenerator.diagnostics(for: tree)
    let first = diagnostics.first { $0.diagMessage.severity == .error } ?? diagnostics.first
    let location = first.map { $0.location(converter: converter) }
    return Finding(
      file: path, line: location?.line ?? 1, column: location?.column ?? 1,
      severity: .error, rule: .parseError,
      message: "file does not parse (\(first?.message ?? "syntax error")); left unchanged")
  }
}
