/// Prints a chapter heading and indented lines, so the tour's output reads as a story.
enum Narrator {
  /// Silences the narration (the tour's `--graph-dot` mode prints only the graph).
  /// Set and read on the main thread only, before and after a chapter runs.
  nonisolated(unsafe) static var isQuiet = false

  static func chapter(_ title: String) { if !isQuiet { print("== \(title)") } }
  static func say(_ line: String) { if !isQuiet { print("   \(line)") } }
}
