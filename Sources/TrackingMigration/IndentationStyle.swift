/// How a file indents, so that code the tool inserts (accessors, `CodingKeys`) looks
/// as if its author had written it.
enum IndentationStyle {
  /// One level of indentation in `bytes`: the increase from a line to the next one
  /// that is indented further, taking the most common one (a tab, two spaces, four…);
  /// four spaces when nothing is indented. Lines of block comments (`*`) are skipped.
  static func unit(of bytes: [UInt8]) -> String {
    var counts: [[UInt8]: Int] = [:]
    var previous: [UInt8]? = nil
    var index = 0
    while index < bytes.count {
      var end = index
      while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
      var contentStart = index
      while contentStart < end, bytes[contentStart] == UInt8(ascii: " ") || bytes[contentStart] == UInt8(ascii: "\t") {
        contentStart += 1
      }
      let isBlank = contentStart == end || (contentStart == end - 1 && bytes[contentStart] == UInt8(ascii: "\r"))
      if !isBlank, bytes[contentStart] != UInt8(ascii: "*") {
        let indentation = Array(bytes[index..<contentStart])
        if let previous, indentation.count > previous.count, indentation.starts(with: previous) {
          counts[Array(indentation[previous.count...]), default: 0] += 1
        }
        previous = indentation
      }
      index = end + 1
    }
    // Most common; among equals, the shortest (then tabs before spaces), for a stable answer.
    let best = counts.max { a, b in
      (a.value, -a.key.count, a.key.first == UInt8(ascii: "\t") ? 1 : 0)
        < (b.value, -b.key.count, b.key.first == UInt8(ascii: "\t") ? 1 : 0)
    }
    return best.map { String(decoding: $0.key, as: UTF8.self) } ?? "    "
  }
}
