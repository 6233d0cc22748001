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
      #expect(outcome.standardError.hasPrefix("\(path):3:5: note: 'External' is declared in another module"))
      let lines = outcome.standardError.split(separator: "\n")
      #expect(lines.count == 2)
      #expect(lines.first?.hasSuffix(" [unknown-type]") == true)
      #expect(lines.last == "tracking-migrate: 1 files, 1 sites: 0 converted, 1 kept, 0 reported, 0 unhandled")
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
      #expect(findings[0]["severity"] as? String == "note")
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

  @Test("A diff for a path with spaces names it so that patch reads it whole")
  func headerWithSpaces() {
    let diff = UnifiedDiff.diff(old: "a\n", new: "b\n", oldName: "a/App tvOS/V.swift", newName: "b/App tvOS/V.swift")
    #expect(diff.hasPrefix("--- a/App tvOS/V.swift\t\n+++ b/App tvOS/V.swift\t\n@@ "))
    let plain = UnifiedDiff.diff(old: "a\n", new: "b\n", oldName: "a/V.swift", newName: "b/V.swift")
    #expect(plain.hasPrefix("--- a/V.swift\n+++ b/V.swift\n@@ "))
  }

  @Test(
    "The dry-run diff applies with patch, also under a folder with a space",
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/patch"), "needs /usr/bin/patch"))
  func diffAppliesWithPatch() throws {
    let view = "import SwiftUI\nstruct V: View {\n    @ObservedObject var m: M\n    var body: some View { Text(\"\") }\n}\n"
    try withTemporaryDirectory(files: ["App tvOS/M.swift": Self.model, "App tvOS/V.swift": view]) { (directory: URL) throws in
      let outcome = MigrationRunner().run(paths: [directory.path])
      let patch = Process()
      patch.executableURL = URL(fileURLWithPath: "/usr/bin/patch")
      // Absolute names: patch refuses them as they are, and applies them under `-d /`.
      patch.arguments = ["-p1", "-d", "/", "--silent"]
      let input = Pipe()
      patch.standardInput = input
      try patch.run()
      input.fileHandleForWriting.write(Data(outcome.standardOutput.utf8))
      try input.fileHandleForWriting.close()
      patch.waitUntilExit()
      #expect(patch.terminationStatus == 0)
      let model = directory.appendingPathComponent("App tvOS/M.swift").path
      #expect(try String(contentsOfFile: model, encoding: .utf8) == Self.migrated)
      #expect(MigrationRunner(mode: .check).run(paths: [directory.path]).exitCode == .success)
    }
  }
}
