import Foundation

/// The command-line behaviour, as a library so it can be tested without a process.
///
/// Exit codes (see ``ExitCode``): 0 success; 1 `--check` found changes to make;
/// 2 a file could not be parsed; 3 an input path or file could not be read or
/// written; 4 `--strict` and manual work remains (a warning or an error). When
/// several apply, the first of 3, 2, 4, 1 wins.
public struct MigrationRunner: Sendable {
  /// What to do with the migrated text.
  public enum Mode: String, Sendable, CaseIterable {
    /// Print a unified diff (default).
    case dryRun
    /// Rewrite the files in place.
    case write
    /// Print the diff and fail when anything would change.
    case check
  }

  /// How to print results.
  public enum ReportFormat: String, Sendable, CaseIterable {
    /// Diff on standard output, compiler-style findings on standard error.
    case text
    /// A ``JSONReport`` on standard output.
    case json
  }

  /// Process exit codes.
  public enum ExitCode: Int32, Sendable {
    /// Everything processed (and, for `--check`, nothing would change).
    case success = 0
    /// `--check` only: at least one file would change.
    case changesNeeded = 1
    /// At least one file could not be parsed; it was left untouched.
    case parseFailure = 2
    /// An input could not be found, read or written. Takes precedence.
    case ioFailure = 3
    /// `--strict` only: a finding of severity warning or error remains, so a person
    /// has work to do (sites the tool reported instead of converting, lint warnings).
    case manualWorkRemains = 4
  }

  /// Everything the command would print, and its exit code.
  public struct Outcome: Sendable {
    /// The status the process should exit with.
    public var exitCode: ExitCode
    /// The diff (text format) or the JSON report.
    public var standardOutput: String
    /// Compiler-style findings (text format) and I/O errors.
    public var standardError: String
  }

  /// The migration to perform.
  public var migrator: Migrator
  /// Dry run, write or check.
  public var mode: Mode
  /// Text or JSON output.
  public var format: ReportFormat
  /// Whether remaining manual work makes the run fail (exit code 4).
  public var strict: Bool

  /// Creates a runner; the defaults match the command line's defaults.
  public init(migrator: Migrator = Migrator(), mode: Mode = .dryRun, format: ReportFormat = .text, strict: Bool = false) {
    self.migrator = migrator
    self.mode = mode
    self.format = format
    self.strict = strict
  }

  /// One line for people: `tracking-migrate: 3 files, 12 sites: 9 converted, 1 kept, 2 reported, 0 unhandled`.
  static func summaryLine(_ summary: MigrationSummary) -> String {
    let total = summary.total
    var line = "tracking-migrate: \(summary.files) files, \(total.sites) sites: \(total.converted) converted, "
      + "\(total.kept) kept, \(total.reported) reported, \(total.unhandled) unhandled"
    if summary.unparsedFiles > 0 { line += " (\(summary.unparsedFiles) files not parsed)" }
    return line + "\n"
  }

  /// Migrates the Swift files at `paths` (files or directories).
  public func run(paths: [String]) -> Outcome {
    let files: [String]
    do {
      files = try SourceCollector.swiftFiles(at: paths)
    } catch {
      return Outcome(exitCode: .ioFailure, standardOutput: "", standardError: error.description + "\n")
    }
    var sources: [SourceFile] = []
    var errors = ""
    var ioFailed = false
    for file in files {
      guard let data = FileManager.default.contents(atPath: file) else {
        errors += "\(file): error: cannot read file\n"
        ioFailed = true
        continue
      }
      guard let text = String(data: data, encoding: .utf8) else {
        errors += "\(file): error: not UTF-8 text; left unchanged\n"
        ioFailed = true
        continue
      }
      sources.append(SourceFile(path: file, text: text))
    }

    // Manifests and projects read for their deployment targets, not migrated.
    let sourcePaths = Set(files.map(SourceCollector.absolute))
    let projectFiles = SourceCollector.projectFiles(around: paths).filter { !sourcePaths.contains(SourceCollector.absolute($0)) }
      .compactMap { path in
      FileManager.default.contents(atPath: path).map { SourceFile(path: path, text: String(decoding: $0, as: UTF8.self)) }
    }
    let result = migrator.migrate(sources, projectFiles: projectFiles)
    var output = ""
    if mode == .write {
      for file in result.changedFiles {
        do {
          try Data(file.migrated.utf8).write(to: URL(fileURLWithPath: file.path), options: .atomic)
        } catch {
          errors += "\(file.path): error: cannot write file (\(error.localizedDescription))\n"
          ioFailed = true
        }
      }
    }

    switch format {
    case .text:
      if mode != .write {
        for file in result.changedFiles {
          // Relative paths get git-style `a/`/`b/` prefixes: apply with `patch -p1`
          // where the tool ran. Absolute paths are used as they are: GNU patch
          // refuses absolute names, so apply with `patch -p1 -d /`.
          let absolute = file.path.hasPrefix("/")
          output += UnifiedDiff.diff(
            old: file.original, new: file.migrated,
            oldName: absolute ? file.path : "a/\(file.path)",
            newName: absolute ? file.path : "b/\(file.path)")
        }
      }
      errors = result.findings.map { $0.compilerStyle + "\n" }.joined() + errors + Self.summaryLine(result.summary)
    case .json:
      output = JSONReport(result: result).encoded()
    }

    let exitCode: ExitCode =
      if ioFailed {
        .ioFailure
      } else if !result.unparsedFiles.isEmpty {
        .parseFailure
      } else if strict && result.needsManualWork {
        .manualWorkRemains
      } else if mode == .check && !result.changedFiles.isEmpty {
        .changesNeeded
      } else {
        .success
      }
    return Outcome(exitCode: exitCode, standardOutput: output, standardError: errors)
  }
}
