/// The options of `tracking-migrate`, parsed from its arguments.
///
/// Parsing is hand-written so that the tool needs nothing beyond swift-syntax, which
/// the package needs anyway: an app depending on the library fetches no argument parser.
public struct CommandLineOptions: Equatable, Sendable {
  /// Swift files or directories (searched recursively).
  public var paths: [String] = []
  /// What to do with the changes: print them, write them, or check that there are none.
  public var mode: MigrationRunner.Mode = .dryRun
  /// The observation system to migrate to.
  public var target: MigrationTarget = .tracking
  /// The output format.
  public var format: MigrationRunner.ReportFormat = .text
  /// Whether the lint rules run.
  public var lints = true
  /// Whether remaining manual work (any warning or error) fails the run with exit code 4.
  public var strict = false
  /// Whether `--help` was given.
  public var wantsHelp = false

  /// Creates the default options (dry run, `@Trackable`, text, lints on, no paths).
  public init() {}

  /// A command line that cannot be run, with a message for the user.
  public struct UsageError: Error, Equatable, CustomStringConvertible {
    /// What is wrong, in one sentence.
    public let description: String
  }

  /// Parses the arguments that follow the program name.
  public static func parse(_ arguments: [String]) throws(UsageError) -> CommandLineOptions {
    var options = CommandLineOptions()
    var write = false
    var check = false
    var remaining = arguments[...]
    func value(of option: String) throws(UsageError) -> String {
      guard let next = remaining.popFirst(), !next.hasPrefix("--") else {
        throw UsageError(description: "\(option) needs a value.")
      }
      return next
    }
    while let argument = remaining.popFirst() {
      var argument = argument
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        remaining.insert(String(argument[argument.index(after: equals)...]), at: remaining.startIndex)
        argument = String(argument[..<equals])
      }
      switch argument {
      case "-h", "--help": options.wantsHelp = true
      case "--write": write = true
      case "--check": check = true
      case "--no-lint": options.lints = false
      case "--strict": options.strict = true
      case "--target":
        switch try value(of: argument) {
        case "tracking": options.target = .tracking
        case "apple": options.target = .apple
        case let other: throw UsageError(description: "--target must be 'tracking' or 'apple', not '\(other)'.")
        }
      case "--report":
        switch try value(of: argument) {
        case "text": options.format = .text
        case "json": options.format = .json
        case let other: throw UsageError(description: "--report must be 'text' or 'json', not '\(other)'.")
        }
      case "--":
        options.paths += remaining
        remaining = []
      default:
        if argument.hasPrefix("-") { throw UsageError(description: "Unknown option '\(argument)'.") }
        options.paths.append(argument)
      }
    }
    if write && check { throw UsageError(description: "--write and --check cannot be combined.") }
    options.mode = write ? .write : check ? .check : .dryRun
    if options.paths.isEmpty && !options.wantsHelp {
      throw UsageError(description: "Give at least one Swift file or directory to migrate.")
    }
    return options
  }

  /// The text `--help` prints.
  public static let help = """
    USAGE: tracking-migrate [--write | --check] [--strict] [--target tracking|apple] [--report text|json] [--no-lint] <paths> ...

    Migrate ObservableObject code to @Trackable (or Apple's @Observable) and lint
    observation pitfalls. By default prints a unified diff of the changes (dry run) on
    standard output and compiler-style findings (file:line:col: warning: ...) on
    standard error, then a summary line. Apply the diff with 'patch -p1' where the
    tool ran ('patch -p1 -d /' for absolute paths). All files are analysed together, so models
    and views may live in different files. Every ObservableObject-era construct is
    either converted or named in a warning with the manual step to take.

    ARGUMENTS:
      <paths>             Swift files or directories (searched recursively) to migrate.

    OPTIONS:
      --write             Rewrite files in place instead of printing a diff.
      --check             Print the diff and exit with status 1 if any file would change (for CI).
      --strict            Exit with status 4 if manual work remains (any warning or error).
      --target <target>   'tracking' (@Trackable, the default) or 'apple' (@Observable).
      --report <format>   'text' (diff + findings, the default) or 'json' (report on stdout).
      --no-lint           Only migrate; skip the observation lint rules.
      -h, --help          Show this help.

    EXIT CODES:
      0  success (in --check mode: nothing would change)
      1  --check: at least one file would change
      2  at least one file could not be parsed (it was left untouched)
      3  an input could not be read or written
      4  --strict: manual work remains (a warning or an error was reported)
      64 the command line is wrong

    """
}
