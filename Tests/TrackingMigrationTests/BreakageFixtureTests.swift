import Foundation
import Testing

@testable import TrackingMigration

/// Rewrites that once broke the build or the app without a word: each fixture in
/// `Fixtures/Breakage/<Name>` (a `Before`/`After` pair of files or folders) shows the
/// construct and what it must become, or the finding that names it.
@Suite("Rewrites that must build or be reported")
struct BreakageFixtureTests {
  static let cases: [(String, MigrationTarget)] = [
    ("AppStorageTracked", .tracking), ("StatefulMacro", .tracking), ("PrivateObservedObject", .tracking),
    ("CodableInExtension", .apple), ("StorageBinding", .apple), ("ImplicitEnvironmentObject", .tracking),
    ("PublishedBindings", .tracking), ("WeakAnnounced", .apple), ("Cosmetics", .apple),
    ("ShadowedSwiftUINames", .tracking), ("PrivateNestedModel", .tracking),
  ]

  static func migrate(_ name: String, _ target: MigrationTarget) throws -> MigrationResult {
    Migrator(target: target).migrate(try Fixtures.sources(of: Fixtures.beforeAndAfter("Breakage/\(name)").before))
  }

  @Test("Before migrates to After", arguments: cases)
  func beforeBecomesAfter(name: String, target: MigrationTarget) throws {
    let result = try Self.migrate(name, target)
    let expected = try Fixtures.sources(of: Fixtures.beforeAndAfter("Breakage/\(name)").after)
    #expect(result.files.map(\.path) == expected.map(\.path))
    for file in expected {
      #expect(result.migratedByPath[file.path] == file.text, "\(name): \(file.path)")
    }
    #expect(result.summary.total.unhandled == 0)
  }

  @Test("After is a fixed point", arguments: cases)
  func idempotent(name: String, target: MigrationTarget) throws {
    let after = try Fixtures.sources(of: Fixtures.beforeAndAfter("Breakage/\(name)").after)
    #expect(Migrator(target: target).migrate(after).changedFiles.isEmpty)
  }

  @Test("1. --target tracking: @AppStorage becomes a tracked property over ignored storage, with a note")
  func appStorageTracked() throws {
    let result = try Self.migrate("AppStorageTracked", .tracking)
    #expect(result.findings(.modelPropertyWrapper).map { "\($0.line):\($0.severity)" } == ["5:note", "6:note", "7:note"])
    #expect(result.summary.byKind["property-wrapper"]?.converted == 3)
    #expect(!result.needsManualWork)
  }

  @Test("A class private inside another type stays an ObservableObject, reported; its view's wrapper stays, with a note")
  func privateNestedModel() throws {
    for target in MigrationTarget.allCases {
      let result = Migrator(target: target).migrate(
        try Fixtures.sources(of: Fixtures.beforeAndAfter("Breakage/PrivateNestedModel").before))
      #expect(result.findings(rule: "private-nested-model").map { "\($0.line):\($0.severity)" } == ["11:warning"])
      #expect(result.summary.byKind["wrapper"].map { "\($0.kept) kept, \($0.converted) converted" } == "1 kept, 1 converted")
      #expect(result.summary.total.unhandled == 0)
    }
  }

  @Test("2. A class with an attached macro the tool cannot see through stays an ObservableObject, reported")
  func statefulMacro() throws {
    let result = try Self.migrate("StatefulMacro", .tracking)
    let macro = result.findings(rule: "attached-macro")
    #expect(macro.map { "\($0.line):\($0.column):\($0.severity)" } == ["6:1:warning"])
    #expect(macro.first?.message.contains("'@Stateful'") == true)
    // Its conformance and @Published are reported; the view's wrapper and modifier of
    // it stay (they remain valid), with notes; Counter is migrated.
    #expect(result.summary.byKind["conformance"].map { "\($0.reported) reported, \($0.converted) converted" } == "1 reported, 1 converted")
    #expect(result.summary.byKind["published"].map { "\($0.reported) reported, \($0.converted) converted" } == "1 reported, 1 converted")
    #expect(result.summary.byKind["wrapper"].map { "\($0.kept) kept, \($0.converted) converted" } == "1 kept, 1 converted")
    #expect(result.summary.byKind["environment-object"]?.kept == 1)
  }

  @Test("2. A subclass with such a macro holds back its superclass, and a second run says so again (also when a protocol has the macro's name)")
  func statefulSubclass() {
    let source = """
      import SwiftUI
      protocol Stateful: AnyObject {}
      class ViewModel: ObservableObject {
          @Published var busy = false
      }
      @Stateful
      final class Player: ViewModel {
          @Published var title = ""
      }
      final class Queue: ViewModel {
          @Published var items: [String] = []
      }
      """
    let migrator = Migrator(target: .tracking)
    let result = migrator.migrate([SourceFile(path: "P.swift", text: source)])
    #expect(result.findings(rule: "attached-macro").map { "\($0.line):\($0.severity)" } == ["3:warning"])
    #expect(result.findings(rule: "attached-macro").first?.message.contains("'Player' has '@Stateful'") == true)
    #expect(result.files[0].migrated == source)
    #expect(result.summary.total.unhandled == 0)
    let again = migrator.migrate([SourceFile(path: "P.swift", text: result.files[0].migrated)])
    #expect(again.findings == result.findings)
  }

  @Test("3. @ObservedObject private var x = v keeps the view's memberwise initializer internal")
  func privateObservedObject() throws {
    let result = try Self.migrate("PrivateObservedObject", .tracking)
    #expect(result.findings.isEmpty)
    #expect(result.summary.byKind["wrapper"]?.converted == 3)
  }

  @Test("4. --target apple: Codable written in an extension gets no CodingKeys in the class")
  func codableInExtension() throws {
    let result = try Self.migrate("CodableInExtension", .apple)
    #expect(result.findings(.codableModel).isEmpty)
    #expect(!result.needsManualWork)
  }

  @Test("5. obj.$storage of an @AppStorage property that became computed becomes Bindable(obj).storage")
  func storageBinding() throws {
    let result = try Self.migrate("StorageBinding", .apple)
    #expect(result.summary.byKind["storage-binding"]?.converted == 2)
    #expect(!result.needsManualWork)
    // The same view code under --target tracking, whose @AppStorage now becomes computed too.
    let tracking = try Self.migrate("StorageBinding", .tracking)
    let view = try #require(tracking.files.first?.migrated)
    #expect(view.contains("Toggle(isOn: Bindable(settings).alwaysUseDeepL)"))
    #expect(view.contains("TextField(\"Key\", text: Bindable(TranslationSettings.shared).deepLKey)"))
    #expect(!tracking.needsManualWork)
  }

  @Test("5. obj.$storage whose object's type cannot be determined is reported")
  func storageBindingUnknownBase() {
    let source = """
      import SwiftUI
      final class Settings: ObservableObject {
          @AppStorage("k") var flag = false
      }
      func toggle(_ any: Holder) -> Binding<Bool> { any.settings.$flag }
      """
    let result = Migrator(target: .apple).migrate([SourceFile(path: "S.swift", text: source)])
    #expect(result.findings(rule: "storage-binding").map { "\($0.line):\($0.severity)" } == ["5:warning"])
    #expect(result.summary.byKind["storage-binding"]?.reported == 1)
  }

  @Test("6. environmentObject(x) with an implicit self is converted and counted")
  func implicitEnvironmentObject() throws {
    let result = try Self.migrate("ImplicitEnvironmentObject", .tracking)
    #expect(result.summary.byKind["environment-object"].map { "\($0.sites) sites, \($0.converted) converted" } == "3 sites, 3 converted")
    #expect(result.findings.isEmpty)
  }

  @Test("8. @Published var x = 0, y = 0 is split into one declaration per property")
  func publishedBindings() throws {
    let result = try Self.migrate("PublishedBindings", .tracking)
    #expect(result.summary.byKind["published"]?.converted == 2)
    #expect(!result.needsManualWork)
  }

  @Test("10. --target apple: weak and unowned properties are tracked, with no warning")
  func weakAnnounced() throws {
    let result = try Self.migrate("WeakAnnounced", .apple)
    #expect(result.findings(.announcedProperty).map { "\($0.line):\($0.severity)" } == ["6:note"])
    #expect(!result.needsManualWork)
  }
}

/// 7. The deployment target: `@Observable`, `@Bindable` and `@Environment(T.self)` need
/// iOS 17 and macOS 14.
@Suite("Deployment target")
struct DeploymentTargetTests {
  /// The fixture laid out as an app: a manifest at the root, an Xcode project, sources.
  private func withApp(_ body: (URL) throws -> Void) throws {
    let fixture = "Breakage/DeploymentTarget"
    try withTemporaryDirectory(files: [
      "Package.swift": try Fixtures.text("\(fixture)/Package.manifest"),
      "Reader.xcodeproj/project.pbxproj": try Fixtures.text("\(fixture)/project.pbxproj"),
      "Sources/Reader/Library.swift": try Fixtures.text("\(fixture)/Library.swift"),
    ]) { directory in try body(directory) }
  }

  @Test("Too old a target in Package.swift or an Xcode project is reported with its file and line")
  func reported() throws {
    try withApp { directory in
      for paths in [[directory.path], [directory.appendingPathComponent("Sources").path]] {
        let outcome = MigrationRunner(migrator: Migrator(target: .apple), strict: true).run(paths: paths)
        #expect(outcome.exitCode == .manualWorkRemains)
        let lines = outcome.standardError.split(separator: "\n").filter { $0.hasSuffix("[deployment-target]") }
        let manifest = directory.appendingPathComponent("Package.swift").path
        let project = directory.appendingPathComponent("Reader.xcodeproj/project.pbxproj").path
        #expect(lines.map { String($0.prefix { $0 != " " }) } == ["\(manifest):7:9:", "\(manifest):9:9:", "\(project):7:5:"])
        #expect(lines.allSatisfy { $0.contains(": warning: ") && $0.contains("--target tracking") })
        #expect(lines.first?.contains("iOS 16") == true && lines.first?.contains("iOS 17") == true)
      }
    }
  }

  @Test("Under --target tracking the finding names what needs iOS 17 in views, and TrackedView for older ones")
  func tracking() throws {
    try withApp { directory in
      let outcome = MigrationRunner(strict: true).run(paths: [directory.path])
      let lines = outcome.standardError.split(separator: "\n").filter { $0.hasSuffix("[deployment-target]") }
      #expect(lines.count == 3)
      #expect(lines.allSatisfy { $0.contains("TrackedView") })
    }
  }

  @Test("A target that is new enough, or a run that converts nothing, says nothing")
  func quiet() throws {
    let manifest = "// swift-tools-version: 5.9\nimport PackageDescription\nlet package = Package(name: \"A\", platforms: [.iOS(.v17), .macOS(.v14)])\n"
    let model = "final class M: ObservableObject {\n    @Published var x = 0\n}\n"
    try withTemporaryDirectory(files: ["Package.swift": manifest, "Sources/A/M.swift": model]) { directory in
      let outcome = MigrationRunner().run(paths: [directory.path])
      #expect(!outcome.standardError.contains("[deployment-target]"))
    }
    let old = manifest.replacingOccurrences(of: ".v17", with: ".v16")
    try withTemporaryDirectory(files: ["Package.swift": old, "Sources/A/Plain.swift": "struct P {}\n"]) { directory in
      let outcome = MigrationRunner().run(paths: [directory.path])
      #expect(!outcome.standardError.contains("[deployment-target]"))
    }
  }
}

/// 9. A second run over the written output finds the manual work the first one left.
@Suite("The report survives a second run")
struct SecondRunTests {
  /// Every fixture, with the target it is migrated to.
  static let fixtures: [(String, MigrationTarget)] =
    [("Breakage/SecondRun/Before.swift", .tracking), ("Breakage/SecondRun/Before.swift", .apple)]
    + BreakageFixtureTests.cases.map { (Fixtures.beforeAndAfter("Breakage/\($0.0)").before, $0.1) }
    + RuleFixtureTests.cases.map { ("Rules/\($0.0)/Before.swift", $0.1) }
    + [("BookReader/Before", .tracking), ("BookReader/Before", .apple), ("MultiFile/Before", .tracking)]

  @Test("Each warning of the first run is found again on the line it moved to", arguments: fixtures)
  func warningsSurvive(fixture: String, target: MigrationTarget) throws {
    let migrator = Migrator(target: target)
    let first = migrator.migrate(try Fixtures.sources(of: fixture))
    let second = migrator.migrate(first.files.map { SourceFile(path: $0.path, text: $0.migrated) })
    #expect(second.changedFiles.isEmpty)
    for file in first.files {
      let lines = LineMap(from: file.original, to: file.migrated)
      let again = Set(second.findings.filter { $0.file == file.path && $0.severity >= .warning }.map { "\($0.rule.rawValue)@\($0.line)" })
      for finding in first.findings where finding.file == file.path && finding.severity >= .warning {
        let moved = lines.newLine(ofOldLine: finding.line)
        #expect(again.contains("\(finding.rule.rawValue)@\(moved)"), "\(file.path):\(finding.line) → \(moved): \(finding.message)")
      }
    }
  }

  @Test("The three kinds of manual work are listed again, and --strict --check still fails")
  func secondRunStrict() throws {
    let before = try Fixtures.text("Breakage/SecondRun/Before.swift")
    try withTemporaryDirectory(files: ["Search.swift": before]) { directory in
      let write = MigrationRunner(mode: .write, strict: true).run(paths: [directory.path])
      #expect(write.exitCode == .manualWorkRemains)
      let rules = ["publisher-use", "state-init-side-effects", "model-property-wrapper"]
      for rule in rules { #expect(write.standardError.contains("[\(rule)]"), "first run: \(rule)") }
      let check = MigrationRunner(mode: .check, strict: true).run(paths: [directory.path])
      #expect(check.exitCode == .manualWorkRemains)
      #expect(check.standardOutput.isEmpty)
      for rule in rules { #expect(check.standardError.contains("[\(rule)]"), "second run: \(rule)") }
      // Every warning, not only one of each kind: two publisher uses and two models in
      // @State (SearchView, ResultsBadge), the @AppStorage without a type, and the class
      // kept for its macro (ResultsCache, whose `results` makes `$results` ambiguous).
      let warnings = { (text: String) in text.split(separator: "\n").filter { $0.contains(": warning: ") }.count }
      #expect(warnings(write.standardError) == 6)
      #expect(warnings(check.standardError) == warnings(write.standardError))
    }
  }
}
