import Foundation
import TrackingMigration

// `tracking-migrate`: migrates ObservableObject code to @Trackable (or @Observable).
let options: CommandLineOptions
do {
  options = try CommandLineOptions.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
  FileHandle.standardError.write(Data("error: \(error)\n\n\(CommandLineOptions.help)".utf8))
  exit(64)
}
if options.wantsHelp {
  FileHandle.standardOutput.write(Data(CommandLineOptions.help.utf8))
  exit(0)
}
let runner = MigrationRunner(
  migrator: Migrator(target: options.target, lints: options.lints), mode: options.mode, format: options.format,
  strict: options.strict)
let outcome = runner.run(paths: options.paths)
FileHandle.standardOutput.write(Data(outcome.standardOutput.utf8))
FileHandle.standardError.write(Data(outcome.standardError.utf8))
exit(outcome.exitCode.rawValue)
