import Foundation
import Testing

@testable import TrackingMigration

/// The real apps of `Scripts/migration-corpus.tsv`, migrated and type-checked before and
/// after (see ``DifferentialTypeCheck``): runs only when `TRACKING_MIGRATE_CORPUS` names
/// the folder the apps were extracted to, through `Scripts/measure-migration-corpus.sh`,
/// never in CI (the sources are fetched, never committed). Writes one Markdown row per
/// app and target, and the errors, to `TRACKING_MIGRATE_CORPUS_REPORT` (default: the
/// corpus folder).
@Suite(
  "Real apps type-check after migration",
  .enabled(if: CorpusApp.folder != nil && TypeChecker.isAvailable, "set TRACKING_MIGRATE_CORPUS (see Scripts/measure-migration-corpus.sh)"),
  .serialized)
struct CorpusTypeCheckTests {
  @Test("No error that migration adds is unreported", arguments: CorpusApp.all)
  func app(_ app: CorpusApp) throws {
    let root = try #require(CorpusApp.folder).appendingPathComponent(app.name)
    let paths = try SourceCollector.swiftFiles(at: [root.path])
    let sources = try paths.map { path in
      SourceFile(path: String(path.dropFirst(root.path.count + 1)), text: try String(contentsOfFile: path, encoding: .utf8))
    }
    let projectFiles = SourceCollector.projectFiles(around: [root.path]).compactMap { path in
      (try? String(contentsOfFile: path, encoding: .utf8)).map { SourceFile(path: String(path.dropFirst(root.path.count + 1)), text: $0) }
    }
    // Package manifests are modules of their own.
    let units = app.units.map { folders in
      sources.map(\.path).filter { path in
        !DeploymentTarget.isProjectFile(path) && folders.contains { $0 == "." || path.hasPrefix($0 + "/") }
      }
    }
    var cache = DifferentialTypeCheck.Cache()
    for target in CorpusApp.targets {
      let clock = ContinuousClock()
      var result: MigrationResult?
      let duration = clock.measure { result = Migrator(target: target).migrate(sources, projectFiles: projectFiles) }
      let migration = try #require(result)
      let report = try DifferentialTypeCheck.compare(migration, units: units, swiftVersion: 5, cache: &cache)
      try CorpusApp.record(app, target: target, report: report, seconds: Double(duration.components.seconds))
      #expect(report.unreported.isEmpty, "\(app.name), --target \(target.rawValue): \(report.unreported.count) errors on unreported lines")
      // The output is a fixed point and parses.
      let again = Migrator(target: target).migrate(migration.files.map { SourceFile(path: $0.path, text: $0.migrated) })
      #expect(again.changedFiles.isEmpty, "\(app.name): a second run changes \(again.changedFiles.map(\.path))")
      #expect(again.unparsedFiles.count == migration.unparsedFiles.count)
    }
  }
}

/// One app of the corpus: its folder name and the groups of folders compiled together.
struct CorpusApp: Sendable, CustomTestStringConvertible {
  var name: String
  var commit: String
  var units: [[String]]

  var testDescription: String { name }

  /// Where the apps are (`TRACKING_MIGRATE_CORPUS`).
  static let folder: URL? = ProcessInfo.processInfo.environment["TRACKING_MIGRATE_CORPUS"].flatMap {
    $0.isEmpty ? nil : URL(fileURLWithPath: $0)
  }

  /// The targets measured (`TRACKING_MIGRATE_TARGETS`, comma-separated; default both).
  static let targets: [MigrationTarget] = (ProcessInfo.processInfo.environment["TRACKING_MIGRATE_TARGETS"] ?? "tracking,apple")
    .split(separator: ",").compactMap { MigrationTarget(rawValue: String($0)) }

  /// The apps of the list that are present in ``folder`` (and named in
  /// `TRACKING_MIGRATE_APPS`, comma-separated, when it is set).
  static let all: [CorpusApp] = {
    guard let folder else { return [] }
    let list = TypeChecker.packageRoot.appendingPathComponent("Scripts/migration-corpus.tsv")
    let only = ProcessInfo.processInfo.environment["TRACKING_MIGRATE_APPS"].flatMap {
      $0.isEmpty ? nil : Set($0.split(separator: ",").map(String.init))
    }
    let text = (try? String(contentsOf: list, encoding: .utf8)) ?? ""
    return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line in
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      guard fields.count >= 4, only?.contains(fields[0]) ?? true,
        FileManager.default.fileExists(atPath: folder.appendingPathComponent(fields[0]).path)
      else { return nil }
      let units = fields[3].split(separator: ";").map { $0.split(separator: ",").map(String.init) }
      return CorpusApp(name: fields[0], commit: fields[2], units: units)
    }
  }()

  /// Appends the app's row to `summary.md` and writes its new errors to
  /// `<name>-<target>-errors.txt`, in `TRACKING_MIGRATE_CORPUS_REPORT` (or ``folder``).
  static func record(_ app: CorpusApp, target: MigrationTarget, report: DifferentialTypeCheck.Report, seconds: Double) throws {
    guard let folder else { return }
    let output = ProcessInfo.processInfo.environment["TRACKING_MIGRATE_CORPUS_REPORT"].map { URL(fileURLWithPath: $0) } ?? folder
    try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
    let total = report.result.summary.total
    let findings = report.result.findings
    let row = [
      app.name, target.rawValue, String(app.commit.prefix(8)), "\(report.result.files.count)", "\(total.sites)",
      "\(total.converted)", "\(total.kept)", "\(total.reported)", "\(total.unhandled)",
      "\(findings.filter { $0.severity >= .warning }.count)", "\(report.result.changedFiles.count)",
      "\(report.before.count)", "\(report.unchecked.count)", "\(report.reported.count)", "\(report.unreported.count)",
      String(format: "%.1f s", seconds),
    ]
    let line = "| " + row.joined(separator: " | ") + " |\n"
    let summary = output.appendingPathComponent("summary.md")
    if let handle = FileHandle(forWritingAtPath: summary.path) {
      handle.seekToEndOfFile()
      handle.write(Data(line.utf8))
      try handle.close()
    } else {
      try Data(line.utf8).write(to: summary)
    }
    let errors =
      ["unreported:"] + report.unreported.map(\.description) + ["", "reported:"] + report.reported.map(\.description)
      + ["", "in statements that had other errors before:"] + report.unchecked.map(\.description)
    try Data(errors.joined(separator: "\n").utf8)
      .write(to: output.appendingPathComponent("\(app.name)-\(target.rawValue)-errors.txt"))
  }
}
