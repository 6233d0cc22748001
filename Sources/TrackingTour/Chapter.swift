/// Prints a chapter heading and indented lines, so the tour's output reads as a story.
enum Narrator {
  static func chapter(_ title: String) { print("== \(title)") }
  static func say(_ line: String) { print("   \(line)") }
}
