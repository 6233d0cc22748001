/// Computes byte ranges to delete so that removing a piece of syntax leaves
/// the surrounding layout as a human would have written it.
///
/// Removing `@Published` from `    @Published var x` must give `    var x`
/// (no double space); removing an attribute that sits alone on its line must
/// remove the whole line (no blank line left behind); removing `: ObservableObject`
/// from `class X: ObservableObject {` must give `class X {`. Comments are never
/// inside the deleted range: only spaces, tabs and at most one line break are
/// absorbed.
enum TriviaAwareRemoval {
  private static let space = UInt8(ascii: " ")
  private static let tab = UInt8(ascii: "\t")
  private static let newline = UInt8(ascii: "\n")
  private static let carriageReturn = UInt8(ascii: "\r")

  private static func isHorizontalSpace(_ byte: UInt8) -> Bool { byte == space || byte == tab }

  /// The range to delete when removing the text at `range` (which must not
  /// include surrounding whitespace) from `bytes`.
  static func deletionRange(for range: Range<Int>, in bytes: [UInt8]) -> Range<Int> {
    var end = range.upperBound
    while end < bytes.count, isHorizontalSpace(bytes[end]) { end += 1 }
    var start = range.lowerBound
    while start > 0, isHorizontalSpace(bytes[start - 1]) { start -= 1 }

    let atLineStart = start == 0 || bytes[start - 1] == newline
    let atLineEnd = end == bytes.count || bytes[end] == newline || bytes[end] == carriageReturn

    if atLineStart && atLineEnd {
      // The removed text is alone on its line: remove the line and its break.
      var lineEnd = end
      if lineEnd < bytes.count, bytes[lineEnd] == carriageReturn { lineEnd += 1 }
      if lineEnd < bytes.count, bytes[lineEnd] == newline { lineEnd += 1 }
      return start..<lineEnd
    }
    if atLineEnd {
      // Don't leave trailing whitespace before the line break.
      return start..<end
    }
    if atLineStart || start < range.lowerBound {
      // Keep the indentation / the preceding space; drop the following space.
      return range.lowerBound..<end
    }
    // Glued to the previous token (`Library: ObservableObject {`): keep the
    // following space so the next token stays separated.
    return range
  }
}
