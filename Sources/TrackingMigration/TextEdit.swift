/// A replacement of a byte range of the original source text.
///
/// The migration never regenerates a file from a syntax tree: it computes edits
/// on the exact bytes of the original, so everything it does not touch —
/// comments, blank lines, indentation — survives byte for byte.
struct TextEdit: Hashable, Sendable {
  /// UTF-8 offsets into the original text.
  var range: Range<Int>
  var replacement: String
  /// Among edits at the same offset, lower ranks apply first (imports go before a
  /// declaration's new attribute); equal ranks keep the order they were made in.
  var rank = 0

  static func insert(_ text: String, at offset: Int, rank: Int = 0) -> TextEdit {
    TextEdit(range: offset..<offset, replacement: text, rank: rank)
  }

  static func delete(_ range: Range<Int>) -> TextEdit {
    TextEdit(range: range, replacement: "")
  }
}

extension Array where Element == TextEdit {
  /// Applies the edits to `text`.
  ///
  /// Edits that overlap an earlier-starting edit are dropped rather than risk
  /// corrupting user code; insertions at the same offset keep their order.
  func applied(to text: String) -> String {
    let ordered = self.enumerated().sorted { a, b in
      (a.element.range.lowerBound, a.element.rank, a.offset) < (b.element.range.lowerBound, b.element.rank, b.offset)
    }.map(\.element)
    let bytes = [UInt8](text.utf8)
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count)
    var cursor = 0
    for edit in ordered {
      guard edit.range.lowerBound >= cursor, edit.range.upperBound <= bytes.count else { continue }
      output.append(contentsOf: bytes[cursor..<edit.range.lowerBound])
      output.append(contentsOf: edit.replacement.utf8)
      cursor = edit.range.upperBound
    }
    output.append(contentsOf: bytes[cursor...])
    return String(decoding: output, as: UTF8.self)
  }
}

extension Range where Bound == Int {
  /// The same range, moved by `offset`.
  func shifted(by offset: Int) -> Range<Int> { (lowerBound + offset)..<(upperBound + offset) }
}
