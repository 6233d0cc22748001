import SwiftSyntax

/// Mutable state for processing one parsed file: the edits to apply, the
/// findings to report, and helpers to express edits in terms of syntax nodes.
final class FileContext {
  let path: String
  let bytes: [UInt8]
  let converter: SourceLocationConverter
  let index: ProjectIndex
  let target: MigrationTarget
  private(set) var edits: [TextEdit] = []
  private(set) var findings: [Finding] = []
  /// Offsets of the sites (see ``SiteScanner``) that a rule converted.
  private(set) var convertedSites: Set<Int> = []
  /// Offsets of the sites a rule left as they are because they stay valid (an
  /// `ObservableObject` from another module keeps its wrappers).
  private(set) var keptSites: Set<Int> = []
  /// Byte ranges covered by warnings and errors: a site inside one is reported.
  private(set) var reportedRanges: [Range<Int>] = []
  /// Modules the migrated file needs beyond the target's macro module.
  var extraImports: Set<String> = []
  /// `key@offset` for each insertion that must happen once (a local `@Bindable`
  /// declaration for a property, a `return`).
  private var claimedInsertions: Set<String> = []
  /// Set when the file now uses the target's macro or ignore attribute.
  var needsMacroImport = false
  /// The file's line break style (`"\r\n"` if it uses CRLF), for inserted lines.
  let lineBreak: String
  /// One level of the file's indentation (see ``IndentationStyle``), for inserted code.
  let indentationUnit: String

  init(path: String, tree: SourceFileSyntax, index: ProjectIndex, target: MigrationTarget) {
    self.path = path
    self.bytes = Array(tree.description.utf8)
    self.lineBreak = tree.description.contains("\r\n") ? "\r\n" : "\n"
    self.indentationUnit = IndentationStyle.unit(of: bytes)
    self.converter = SourceLocationConverter(fileName: path, tree: tree)
    self.index = index
    self.target = target
  }

  // MARK: Findings

  /// Reports a finding at `node`. A warning or error also marks every site inside
  /// `covering` (by default the node itself) as reported.
  func report(
    _ severity: Severity, _ rule: Rule, at node: some SyntaxProtocol, covering: (any SyntaxProtocol)? = nil,
    _ message: String
  ) {
    if severity >= .warning { reportedRanges.append(trimmedRange(of: covering ?? node)) }
    record(severity, rule, at: node.positionAfterSkippingLeadingTrivia, message)
  }

  func report(_ severity: Severity, _ rule: Rule, at position: AbsolutePosition, _ message: String) {
    if severity >= .warning { reportedRanges.append(position.utf8Offset..<position.utf8Offset + 1) }
    record(severity, rule, at: position, message)
  }

  private func record(_ severity: Severity, _ rule: Rule, at position: AbsolutePosition, _ message: String) {
    let location = converter.location(for: position)
    findings.append(
      Finding(
        file: path, line: location.line, column: location.column,
        severity: severity, rule: rule, message: message))
  }

  // MARK: Sites

  /// Marks the site that starts at `node` as converted.
  func converted(_ node: some SyntaxProtocol) {
    convertedSites.insert(node.positionAfterSkippingLeadingTrivia.utf8Offset)
  }

  /// Marks the site that starts at `node` as left unchanged and still valid.
  func kept(_ node: some SyntaxProtocol) {
    keptSites.insert(node.positionAfterSkippingLeadingTrivia.utf8Offset)
  }

  /// Whether a warning or error covers `offset`.
  func isReported(_ offset: Int) -> Bool {
    reportedRanges.contains { $0.contains(offset) }
  }

  /// Whether the insertion named `key` at `offset` is still to be made: the
  /// first caller gets `true`, later ones `false`.
  func claimInsertion(of key: String, at offset: Int) -> Bool {
    claimedInsertions.insert("\(key)@\(offset)").inserted
  }

  // MARK: Edits

  /// The spaces and tabs that start the line containing `offset`.
  func indentation(ofLineAt offset: Int) -> String {
    var start = offset
    while start > 0, bytes[start - 1] != UInt8(ascii: "\n") { start -= 1 }
    var end = start
    while end < bytes.count, bytes[end] == UInt8(ascii: " ") || bytes[end] == UInt8(ascii: "\t") { end += 1 }
    return String(decoding: bytes[start..<end], as: UTF8.self)
  }

  /// The byte range of `node` without its leading and trailing trivia.
  func trimmedRange(of node: any SyntaxProtocol) -> Range<Int> {
    node.positionAfterSkippingLeadingTrivia.utf8Offset..<node.endPositionBeforeTrailingTrivia.utf8Offset
  }

  /// Replaces the text of `node` (excluding trivia) with `text`.
  func replace(_ node: some SyntaxProtocol, with text: String) {
    edits.append(TextEdit(range: trimmedRange(of: node), replacement: text))
  }

  /// Replaces the text in `range` with `text`.
  func replace(_ range: Range<Int>, with text: String) {
    edits.append(TextEdit(range: range, replacement: text))
  }

  /// Removes the text in `range`, absorbing only whitespace around it.
  func remove(_ range: Range<Int>) {
    edits.append(.delete(TriviaAwareRemoval.deletionRange(for: range, in: bytes)))
  }

  /// The range ``remove(_:)`` would delete for `node`.
  func removalRange(of node: some SyntaxProtocol) -> Range<Int> {
    TriviaAwareRemoval.deletionRange(for: trimmedRange(of: node), in: bytes)
  }

  /// Removes `node`, absorbing only whitespace around it.
  func remove(_ node: some SyntaxProtocol) {
    remove(trimmedRange(of: node))
  }

  /// Inserts `text` right before the first token of `node` (after its leading trivia).
  func insert(_ text: String, before node: some SyntaxProtocol) {
    edits.append(.insert(text, at: node.positionAfterSkippingLeadingTrivia.utf8Offset))
  }

  /// Inserts `text` at `offset`; a lower `rank` goes first among insertions there.
  func insert(_ text: String, atOffset offset: Int, rank: Int = 0) {
    edits.append(.insert(text, at: offset, rank: rank))
  }
}
