import ArgumentParser
import Foundation
import TrackingMigration

/// `tracking-migrate`: migrates ObservableObject code to @Trackable (or @Observable).
struct TrackingMigrate: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "tracking-migrate",
    abstract: "Migrate ObservableObject code to @Trackable (or Apple's @Observable) and lint observation pitfalls.",
    discussion: """
      By default prints a unified diff of the changes (dry run) on standard output and \
      compiler-style findings (file:line:col: warning: ...) on standard error. \
      All files are analysed together, so models and views may live in different files.

      EXIT CODES:
        0  success (in --check mode: nothing would change)
        1  --check: at least one file would change
        2  at least one file could not be parsed (it was left untouched)
        3  an input could not be read or written
      """
  )

  enum Target: String, ExpressibleByArgument, CaseIterable {
    case tracking, apple
  }

  enum Report: String, ExpressibleByArgument, CaseIterable {
    case text, json
  }

  @Argument(help: "Swift files or directories (searched recursively) to migrate.")
  var paths: [String]

  @Flag(help: "Rewrite files in place instead of printing a diff.")
  var write = false

  @Flag(help: "Print the diff and exit with status 1 if any file would change (for CI).")
  var check = false

  @Option(help: "Observation system to migrate to: 'tracking' (@Trackable) or 'apple' (@Observable).")
  var target: Target = .tracking

  @Option(help: "Output format: 'text' (diff + compiler-style findings) or 'json' (report on stdout).")
  var report: Report = .text

  @Flag(name: .customLong("no-lint"), help: "Only migrate; skip the observation lint rules.")
  var noLint = false

  func validate() throws {
    if write && check { throw ValidationError("--write and --check cannot be combined.") }
  }

  func run() throws {
    let runner = MigrationRunner(
      migrator: Migrator(target: target == .apple ? .apple : .tracking, lints: !noLint),
      mode: write ? .write : check ? .check : .dryRun,
      format: report == .json ? .json : .text
    )
    let outcome = runner.run(paths: paths)
    FileHandle.standardOutput.write(Data(outcome.standardOutput.utf8))
    FileHandle.standardError.write(Data(outcome.standardError.utf8))
    if outcome.exitCode != .success {
      throw ExitCode(outcome.exitCode.rawValue)
    }
  }
}

TrackingMigrate.main()
