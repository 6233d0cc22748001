import Foundation
import Testing

@testable import TrackingMigration

@Suite("Command-line runner")
struct RunnerTests {
  static let model = "import SwiftUI\n\nclass M: ObservableObject {\n    @Published var x = 1\n}\n"
  static let migrated = "import SwiftUI\nimport Tracking\n\n@Trackable class M {\n    var x = 1\n}\n"

  @Test("Dry run prints a diff and changes nothing")
  func dryRun() throws {
    try withTemporaryDirectory(files: ["Sources/M.swift": Self.model]) { (directory: URL) throws in
      let outcome = MigrationRunner().run(paths: [directory.path])
      let path = directory.appendingPathComponent("Sources/M.swift").path
      #expect(outcome.exitCode == .success)
      #expect(outcome.standardOutput.hasPrefix("--- \(path)\n+++ \(path)\n@@ "))
      #expect(outcome.standardOutput.contains("+@Trackable class M {\n"))
      #expect(try String(contentsOfFile: path, encoding: .utf8) == Self.model)
    }
  }

  @Test("--check fails when changes are needed, --write applies them, then --check passes")
  func checkWriteCheck() throws {
    try withTemporaryDirectory(files: ["M.swift": Self.model, ".build/Hidden.swift": Self.model]) { (directory: URL) throws in
      let check = MigrationRunner(mode: .check)
      #expect(check.run(paths: [directory.path]).exitCode == .changesNeeded)
      let write = MigrationRunner(mode: .write).run(paths: [directory.path])
      #expect(write.exitCode == .success)
      #expect(write.standardOutput.isEmpty)
      let path = directory.appendingPathComponent("M.swift").path
      #expect(try String(contentsOfFile: path, encoding: .utf8) == Self.migrated)
      // Hidden build folders are skipped.
      let hidden = directory.appendingPathComponent(".build/Hidden.swift").path
      #expect(try String(contentsOfFile: hidden, encoding: .utf8) == Self.model)
      let again = check.run(paths: [directory.path])
      #expect(again.exitCode == .success)
      #expect(again.standardOutput.isEmpty)
    }
  }

  @Test("Unparseable files exit with 2, are untouched, and errors are compiler-style")
  func parseFailure() throws {
    let broken = "class B: ObservableObject {\n    @Published var x = \n"
    try withTemporaryDirectory(files: ["B.swift": broken, "M.swift": Self.model]) { (directory: URL) throws in
      let outcome = MigrationRunner(mode: .write).run(paths: [directory.path])
      #expect(outcome.exitCode == .parseFailure)
      let path = directory.appendingPathComponent("B.swift").path
      #expect(try String(contentsOfFile: path, encoding: .utf8) == broken)
      #expect(outcome.standardError.contains("\(path):2:"))
      #expect(outcome.standardError.contains(": error: file does not parse"))
      let migrated = directory.appendingPathComponent("M.swift").path
      #expect(try String(contentsOfFile: migrated, encoding: .utf8) == Self.migrated)
    }
  }

  @Test("Findings go to stderr as file:line:col: severity: message [rule]")
  func compilerStyleFindings() throws {
    let view = "import SwiftUI\nstruct V: View {\n    @ObservedObject var m: External\n    var body: some View { Text(\"\") }\n}\n"
    try withTemporaryDirectory(files: ["V.swift": view]) { (directory: URL) throws in
      let path = directory.appendingPathComponent("V.swift").path
      let outcome = MigrationRunner().run(paths: [path])
      #expect(outcome.exitCode == .success)
      #expect(outcome.standardOutput.isEmpty)
      #expect(outcome.standardError.hasPrefix("\(path):3:5: warning: 'External' was not found"))
      let lines = outcome.standardError.split(separator: "\n")
      #expect(lines.count == 2)
      #expect(lines.first?.hasSuffix(" [unknown-type]") == true)
      #expect(lines.last == "tracking-migrate: 1 files, 1 sites: 0 converted, 1 reported, 0 unhandled")
    }
  }

  @Test("JSON report has stable field names")
  func jsonReport() throws {
    let source = Self.model + "struct V {\n    @ObservedObject var e: External\n}\n"
    try withTemporaryDirectory(files: ["M.swift": source]) { (directory: URL) throws in
      let path = directory.appendingPathComponent("M.swift").path
      let outcome = MigrationRunner(format: .json).run(paths: [path])
      let object = try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any]
      #expect(object?["changedFiles"] as? [String] == [path])
      #expect(object?["unparsedFiles"] as? [String] == [])
      let findings = try #require(object?["findings"] as? [[String: Any]])
      #expect(findings.count == 1)
      #expect(Set(findings[0].keys) == ["file", "line", "column", "severity", "rule", "message"])
      #expect(findings[0]["rule"] as? String == "unknown-type")
      #expect(findings[0]["severity"] as? String == "warning")
      #expect(findings[0]["line"] as? Int == 7)
      #expect(outcome.standardError.isEmpty)
    }
  }

  @Test("A missing path is an I/O failure")
  func missingPath() {
    let outcome = MigrationRunner().run(paths: ["/nonexistent/\(UUID().uuidString)"])
    #expect(outcome.exitCode == .ioFailure)
    #expect(outcome.standardError.contains("no such file or directory"))
  }
}
