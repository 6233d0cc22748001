/// Formats the difference between two texts as a unified diff (`diff -u` style).
public enum UnifiedDiff {
  /// A line and whether it ends with a line break (only the last line may not).
  struct Line: Equatable {
    var text: Substring
    var hasNewline: Bool
  }

  static func lines(of text: String) -> [Line] {
    guard !text.isEmpty else { return [] }
    var parts = text.split(separator: "\n", omittingEmptySubsequences: false)
    let endsWithNewline = parts.last == ""
    if endsWithNewline { parts.removeLast() }
    return parts.enumerated().map { offset, part in
      Line(text: part, hasNewline: offset < parts.count - 1 || endsWithNewline)
    }
  }

  /// The unified diff from `old` to `new`, or an empty string if they are equal.
  ///
  /// - Parameters:
  ///   - oldName: the name in the `---` header (conventionally `a/<path>`).
  ///   - newName: the name in the `+++` header (conventionally `b/<path>`).
  ///   - context: number of unchanged lines around each change.
  public static func diff(old: String, new: String, oldName: String, newName: String, context: Int = 3) -> String {
    guard old != new else { return "" }
    let a = lines(of: old)
    let b = lines(of: new)
    let operations = LineDiff.operations(from: a, to: b)

    // Positions in a/b before each operation, for hunk headers.
    var positions: [(old: Int, new: Int)] = []
    var oldPosition = 0
    var newPosition = 0
    for operation in operations {
      positions.append((oldPosition, newPosition))
      switch operation {
      case .equal: oldPosition += 1; newPosition += 1
      case .delete: oldPosition += 1
      case .insert: newPosition += 1
      }
    }

    let changed = operations.indices.filter {
      if case .equal = operations[$0] { return false }
      return true
    }
    // Group changes whose gap of unchanged lines is small enough to share context.
    var groups: [ClosedRange<Int>] = []
    for index in changed {
      if let last = groups.last, index - last.upperBound <= 2 * context + 1 {
        groups[groups.count - 1] = last.lowerBound...index
      } else {
        groups.append(index...index)
      }
    }

    var output = "--- \(headerName(oldName))\n+++ \(headerName(newName))\n"
    for group in groups {
      let start = max(0, group.lowerBound - context)
      let end = min(operations.count, group.upperBound + context + 1)
      var oldCount = 0
      var newCount = 0
      var body = ""
      for operation in operations[start..<end] {
        switch operation {
        case .equal(let o, _):
          oldCount += 1; newCount += 1
          body += render(" ", a[o])
        case .delete(let o):
          oldCount += 1
          body += render("-", a[o])
        case .insert(let n):
          newCount += 1
          body += render("+", b[n])
        }
      }
      let oldStart = positions[start].old + (oldCount == 0 ? 0 : 1)
      let newStart = positions[start].new + (newCount == 0 ? 0 : 1)
      output += "@@ -\(range(oldStart, oldCount)) +\(range(newStart, newCount)) @@\n" + body
    }
    return output
  }

  /// A file name as a header shows it. `patch` reads a name up to the first tab, or
  /// up to the first space when there is no tab; so a name with a space gets a
  /// trailing tab, as `git diff` writes it.
  static func headerName(_ name: String) -> String {
    name.contains(" ") ? name + "\t" : name
  }

  private static func range(_ start: Int, _ count: Int) -> String {
    count == 1 ? "\(start)" : "\(start),\(count)"
  }

  private static func render(_ prefix: String, _ line: Line) -> String {
    prefix + line.text + (line.hasNewline ? "\n" : "\n\\ No newline at end of file\n")
  }
}
