import Foundation
import SwiftParser
import SwiftSyntax

@testable import TrackingMigration

/// Measures whether migration breaks the build: the files are type-checked as they
/// were and as migrated (see ``TypeChecker``), and each error of the migrated version
/// is placed in the original file (through the migration's line changes) and in its
/// *statement*: the innermost statement or declaration of the original around that
/// line (an error of a multi-line expression may move between its lines). It is then
/// - *old*: the original had the same error in the same statement (a module that does
///   not exist here, a part of SwiftUI the stubs lack);
/// - *unchecked*: the original statement had other errors: code the stubs cannot
///   check, before or after, so the change of message says nothing; or the original
///   had errors elsewhere in the same body (a member or a top-level declaration): the
///   compiler may stop checking a body, a result builder's above all, at its first
///   error, so an error there may only have been hidden before; or the error is that a
///   name cannot be found which the original could not find either (a type of a
///   module that does not exist here, such as SwiftUI's `Color`, now also named by a
///   declaration the migration wrote: an `@AppStorage` property's computed twin);
/// - *reported*: new, in a statement that type-checked, and the migration reported a
///   warning or an error in that statement or on the line next to the error;
/// - *unreported*: new, in a statement that type-checked, and nothing reported there:
///   a silent breakage. The goal is none.
struct DifferentialTypeCheck {
  struct Report {
    /// The migration that was checked.
    var result: MigrationResult
    /// Errors of the original files.
    var before: [TypeChecker.Diagnostic]
    /// Errors of the migrated files.
    var after: [TypeChecker.Diagnostic]
    /// New errors in statements that had other errors before.
    var unchecked: [TypeChecker.Diagnostic]
    /// New errors in statements that type-checked before, where the migration reported.
    var reported: [TypeChecker.Diagnostic]
    /// New errors in statements that type-checked before, where nothing was reported.
    var unreported: [TypeChecker.Diagnostic]
    /// The compiler's output for the migrated files.
    var output: String
  }

  /// Migrates `sources` with `target` and type-checks both versions of each unit: a
  /// group of paths compiled together as one module (by default, all of them).
  static func run(
    _ sources: [SourceFile], target: MigrationTarget, units: [[String]]? = nil, swiftVersion: Int = 6
  ) throws -> Report {
    let result = Migrator(target: target).migrate(sources)
    return try compare(result, units: units, swiftVersion: swiftVersion)
  }

  /// The errors of original files, by the unit's paths: one check serves both targets.
  struct Cache {
    fileprivate var errors: [[String]: [TypeChecker.Diagnostic]] = [:]
  }

  /// Type-checks the original and the migrated files of `result` and sorts the errors.
  static func compare(_ result: MigrationResult, units: [[String]]? = nil, swiftVersion: Int = 6) throws -> Report {
    var cache = Cache()
    return try compare(result, units: units, swiftVersion: swiftVersion, cache: &cache)
  }

  /// The same, reusing (and filling) `cache` for the original files.
  static func compare(_ result: MigrationResult, units: [[String]]?, swiftVersion: Int, cache: inout Cache) throws -> Report {
    var report = Report(result: result, before: [], after: [], unchecked: [], reported: [], unreported: [], output: "")
    let parsed = result.files.filter(\.isParsed)
    for unit in units ?? [parsed.map(\.path)] {
      let members = Set(unit)
      let files = parsed.filter { members.contains($0.path) }
      let key = files.map(\.path)
      let before =
        try cache.errors[key]
        ?? TypeChecker.typeCheck(
          sources: Dictionary(uniqueKeysWithValues: files.map { ($0.path, $0.original) }), swiftVersion: swiftVersion
        ).errors
      cache.errors[key] = before
      let after = try TypeChecker.typeCheck(
        sources: Dictionary(uniqueKeysWithValues: files.map { ($0.path, $0.migrated) }), swiftVersion: swiftVersion)
      report.before += before
      report.after += after.errors
      report.output += after.output
      sort(after.errors, against: before, files: files, findings: result.findings, into: &report)
    }
    return report
  }

  private static func sort(
    _ errors: [TypeChecker.Diagnostic], against original: [TypeChecker.Diagnostic], files: [FileOutcome],
    findings: [Finding], into report: inout Report
  ) {
    let byPath = Dictionary(uniqueKeysWithValues: files.map { ($0.path, $0) })
    var statements: [String: StatementMap] = [:]
    func statementMap(_ path: String) -> StatementMap {
      if let map = statements[path] { return map }
      let map = StatementMap(byPath[path]?.original ?? "")
      statements[path] = map
      return map
    }
    // What the original had, by statement: its messages.
    var before: [String: [Int: Set<String>]] = [:]
    // The bodies that had errors.
    var bodiesBefore: [String: Set<Int>] = [:]
    for error in original where byPath[error.file] != nil {
      let map = statementMap(error.file)
      before[error.file, default: [:]][map.statement(of: error.line), default: []].insert(error.message)
      bodiesBefore[error.file, default: []].insert(map.body(of: error.line))
    }
    // Names the original could not find: missing here whatever the migration does.
    let missingBefore = Set(original.map(\.message).filter { $0.hasPrefix("cannot find ") && $0.hasSuffix(" in scope") })
    var lineMaps: [String: LineMap] = [:]
    for error in errors {
      guard let file = byPath[error.file] else { continue }
      let lines = lineMaps[file.path] ?? LineMap(from: file.original, to: file.migrated)
      lineMaps[file.path] = lines
      let line = lines.oldLine(ofNewLine: error.line)
      let map = statementMap(file.path)
      let statement = map.statement(of: line)
      if let messages = before[file.path]?[statement] {
        if messages.contains(error.message) { continue }
        report.unchecked.append(error)
        continue
      }
      if bodiesBefore[file.path]?.contains(map.body(of: line)) == true || missingBefore.contains(error.message) {
        report.unchecked.append(error)
        continue
      }
      let isReported = findings.contains { finding in
        finding.file == file.path && finding.severity >= .warning
          && (abs(finding.line - line) <= 1 || map.statement(of: finding.line) == statement)
      }
      if isReported {
        report.reported.append(error)
      } else {
        report.unreported.append(error)
      }
    }
  }
}

/// For each line of a file, the innermost statement or member declaration around it,
/// and the body it is in (the innermost member that is not a type, or the top-level
/// declaration or statement), each named by its first line.
struct StatementMap {
  private var statementOfLine: [Int]
  private var bodyOfLine: [Int]

  init(_ text: String) {
    let tree = Parser.parse(source: text)
    let converter = SourceLocationConverter(fileName: "", tree: tree)
    let lineCount = text.split(separator: "\n", omittingEmptySubsequences: false).count
    statementOfLine = Array(0...lineCount)
    bodyOfLine = Array(0...lineCount)
    final class Collector: SyntaxVisitor {
      var ranges: [(Int, Int)] = []
      var bodies: [(Int, Int)] = []
      let converter: SourceLocationConverter
      init(_ converter: SourceLocationConverter) {
        self.converter = converter
        super.init(viewMode: .sourceAccurate)
      }
      func lines(of node: some SyntaxProtocol) -> (Int, Int) {
        (converter.location(for: node.positionAfterSkippingLeadingTrivia).line,
         converter.location(for: node.endPositionBeforeTrailingTrivia).line)
      }
      override func visit(_ node: CodeBlockItemSyntax) -> SyntaxVisitorContinueKind {
        ranges.append(lines(of: node))
        if node.parent?.parent?.is(SourceFileSyntax.self) == true, !isType(node.item) {
          bodies.append(lines(of: node))
        }
        return .visitChildren
      }
      override func visit(_ node: MemberBlockItemSyntax) -> SyntaxVisitorContinueKind {
        ranges.append(lines(of: node))
        if !isType(node.decl) { bodies.append(lines(of: node)) }
        return .visitChildren
      }
      private func isType(_ node: some SyntaxProtocol) -> Bool {
        node.is(StructDeclSyntax.self) || node.is(ClassDeclSyntax.self) || node.is(EnumDeclSyntax.self)
          || node.is(ActorDeclSyntax.self) || node.is(ExtensionDeclSyntax.self) || node.is(ProtocolDeclSyntax.self)
      }
    }
    let collector = Collector(converter)
    collector.walk(tree)
    func innermost(_ ranges: [(Int, Int)], into map: inout [Int]) {
      var span = [Int](repeating: Int.max, count: lineCount + 1)
      for (start, end) in ranges {
        for line in max(start, 0)...min(end, lineCount) where end - start < span[line] {
          span[line] = end - start
          map[line] = start
        }
      }
    }
    innermost(collector.ranges, into: &statementOfLine)
    innermost(collector.bodies, into: &bodyOfLine)
  }

  /// The first line of the body (see above) around `line`.
  func body(of line: Int) -> Int { line >= 0 && line < bodyOfLine.count ? bodyOfLine[line] : line }

  /// The first line of the innermost statement around `line`.
  func statement(of line: Int) -> Int { line >= 0 && line < statementOfLine.count ? statementOfLine[line] : line }
}
