import Foundation
import SwiftParser
import Testing

@testable import TrackingMigration

/// Every ObservableObject-era construct ends converted, reported or (a tool gap)
/// reported as unhandled; `--strict` turns remaining manual work into an exit code.
@Suite("Site accounting and --strict")
struct SiteAccountingTests {
  @Test("BookReader: every site is found and converted")
  func bookReaderSites() throws {
    let result = Migrator().migrate(try Fixtures.sources(in: "BookReader/Before"))
    let summary = result.summary
    #expect(summary.files == 6)
    // Two conformances, four @Published, @StateObject, @EnvironmentObject, two
    // @ObservedObject, one environmentObject(_:).
    #expect(summary.total.sites == 11)
    #expect(summary.total.converted == 11)
    #expect(summary.byKind["published"]?.converted == 4)
    #expect(summary.byKind["wrapper"]?.converted == 4)
    #expect(summary.byKind["conformance"]?.sites == 2)
    #expect(summary.byKind["environment-object"]?.converted == 1)
  }

  @Test("A site reported by a rule is counted as reported; one that stays valid as kept")
  func reportedSites() {
    let source = """
      import SwiftUI
      struct V: View {
          @StateObject var made = makeModel()
          @ObservedObject var external: External
          var body: some View { Text("") }
      }
      """
    let result = Migrator().migrate([SourceFile(path: "V.swift", text: source)])
    #expect(result.summary.total.sites == 2)
    // The type of `made` is unknown: reported. `External` comes from another module,
    // where it is an ObservableObject, so @ObservedObject stays correct: kept.
    #expect(result.summary.total.reported == 1)
    #expect(result.summary.total.kept == 1)
    #expect(result.summary.total.unhandled == 0)
    #expect(result.findings(.unknownType).map(\.severity) == [.warning, .note])
  }

  @Test("A site no rule marked gets an unhandled-site warning, so nothing is silent")
  func safetyNet() throws {
    let text = "class M: ObservableObject {}\n"
    let tree = Parser.parse(source: text)
    var index = ProjectIndex()
    index.add(tree)
    index.finish()
    let context = FileContext(path: "M.swift", tree: tree, index: index, target: .tracking)
    var summary = MigrationSummary()
    // No rule ran: the conformance at column 10 is neither converted nor reported.
    Migrator.account(for: SiteScanner.sites(in: tree, index: index), in: context, into: &summary)
    #expect(summary.total.unhandled == 1)
    let finding = try #require(context.findings.first)
    #expect(finding.rule == .unhandledSite)
    #expect(finding.severity == .warning)
    #expect("\(finding.line):\(finding.column)" == "1:10")
    #expect(finding.message.contains("ObservableObject conformance"))
  }

  @Test("--strict exits 4 while a warning remains, 0 when only notes remain")
  func strictExitCode() throws {
    let external = "import SwiftUI\nstruct V: View {\n    @StateObject var e = makeModel()\n    var body: some View { Text(\"\") }\n}\n"
    let clean = "class M: ObservableObject {\n    @Published var x = 1\n    var cache = 0\n}\n"
    try withTemporaryDirectory(files: ["V.swift": external, "M.swift": clean]) { (directory: URL) throws in
      let view = directory.appendingPathComponent("V.swift").path
      let model = directory.appendingPathComponent("M.swift").path
      #expect(MigrationRunner(strict: true).run(paths: [view]).exitCode == .manualWorkRemains)
      #expect(MigrationRunner(strict: false).run(paths: [view]).exitCode == .success)
      // The model only gets an ignored-property note: nothing left to do by hand.
      #expect(MigrationRunner(strict: true).run(paths: [model]).exitCode == .success)
      // Manual work outranks --check's "changes needed".
      #expect(MigrationRunner(mode: .check, strict: true).run(paths: [model, view]).exitCode == .manualWorkRemains)
      #expect(MigrationRunner(mode: .check, strict: true).run(paths: [model]).exitCode == .changesNeeded)
    }
  }

  @Test("--strict is parsed")
  func strictOption() throws {
    #expect(try CommandLineOptions.parse(["--strict", "Sources"]).strict)
    #expect(try !CommandLineOptions.parse(["Sources"]).strict)
  }

  @Test("The JSON report carries the summary")
  func jsonSummary() throws {
    let result = Migrator().migrate(try Fixtures.sources(in: "BookReader/Before"))
    let data = Data(JSONReport(result: result).encoded().utf8)
    let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    let summary = try #require(object?["summary"] as? [String: Any])
    let total = try #require(summary["total"] as? [String: Any])
    #expect(total["sites"] as? Int == 11)
    #expect(total["unhandled"] as? Int == 0)
  }
}
