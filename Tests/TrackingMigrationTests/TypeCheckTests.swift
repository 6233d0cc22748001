import Foundation
import Testing

@testable import TrackingMigration

/// Compiles migrated fixtures and checks the tool's promise: every site is turned
/// into code that builds, or reported. So each compiler error must fall on a line
/// where the migration reported a warning or an error.
///
/// The code is type-checked against Apple's Observation (`--target apple`) or this
/// package's `Tracking` module and macros (`--target tracking`), with
/// `Fixtures/TypeCheck/SwiftUIStandIns.swift` in place of SwiftUI: its generic
/// constraints (`Bindable`, `Environment(_:)` and `environment(_:)` need
/// `AnyObject & Observable`; `View` is main-actor isolated) follow Apple's
/// documentation, but it checks the shape of the code, not SwiftUI's behaviour.
/// Runs on Linux with the package's debug build (`swift build --build-tests`).
@Suite("Migrated code type-checks", .enabled(if: TypeChecker.isAvailable, "needs Linux, swiftc and the debug build"))
struct TypeCheckTests {
  static let apple = ["BookReader/Before", "Rules/CodableApple/Before.swift", "Rules/AppStorageApple/Before.swift"]
  static let trackingWithoutObservable = [
    "Rules/ProtocolsAndInits/Before.swift", "Rules/ConditionalMembers/Before.swift",
    "Rules/InheritanceComments/Before.swift",
  ]
  static let trackingWithObservable = ["BookReader/Before", "Rules/ViewsResolved/Before.swift"]

  @Test("--target apple: errors only where the migration reported", arguments: apple)
  func appleTarget(fixture: String) throws {
    try TypeChecker.expectErrorsOnlyWhereReported(fixture: fixture, target: .apple)
  }

  @Test("--target tracking, no SwiftUI Observable needed: errors only where reported", arguments: trackingWithoutObservable)
  func trackingTarget(fixture: String) throws {
    try TypeChecker.expectErrorsOnlyWhereReported(fixture: fixture, target: .tracking)
  }

  /// `@Bindable`, `@Environment(Model.self)` and `.environment(model)` need Apple's
  /// `Observable`: this runs once `@Trackable` classes conform to it.
  @Test(
    "--target tracking with @Bindable, @Environment(Model.self), .environment(_:): errors only where reported",
    .enabled(if: TypeChecker.trackableIsObservable, "@Trackable classes do not conform to Observation.Observable in this build"),
    arguments: trackingWithObservable)
  func trackingViews(fixture: String) throws {
    try TypeChecker.expectErrorsOnlyWhereReported(fixture: fixture, target: .tracking)
  }

  @Test("The check can fail: an unreported @Bindable over a class that is not Observable is an error")
  func checkCanFail() throws {
    let source = "final class Plain { var x = 0 }\nstruct V: View {\n    @Bindable var plain: Plain\n    var body: some View { Text(\"\") }\n}\n"
    let outcome = try TypeChecker.typeCheck(sources: ["V.swift": source], withTracking: false)
    #expect(outcome.errorLines == ["V.swift": [3]], "\(outcome.output)")
  }
}

/// Runs `swiftc -typecheck` with the package's build products.
enum TypeChecker {
  static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  static let debugBuild = packageRoot.appendingPathComponent(".build/debug").resolvingSymlinksInPath()

  static let swiftc: String? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    return path.split(separator: ":").map { "\($0)/swiftc" }.first { FileManager.default.isExecutableFile(atPath: $0) }
  }()

  static var isAvailable: Bool {
    #if os(Linux)
      return swiftc != nil
        && FileManager.default.fileExists(atPath: debugBuild.appendingPathComponent("Modules/Tracking.swiftmodule").path)
        && FileManager.default.isExecutableFile(atPath: debugBuild.appendingPathComponent("TrackingMacros-tool").path)
    #else
      return false
    #endif
  }

  /// Whether a `@Trackable` class satisfies a generic `Observable` requirement.
  static let trackableIsObservable: Bool = {
    guard isAvailable else { return false }
    let probe = "import Tracking\nimport Observation\n@Trackable final class Probe {}\nfunc needs<T: AnyObject & Observable>(_: T.Type) {}\nfunc check() { needs(Probe.self) }\n"
    return (try? typeCheck(sources: ["Probe.swift": probe], withTracking: true, standIns: false).status) == 0
  }()

  /// The key under which errors in the stand-ins themselves are recorded.
  static let standInsFile = "SwiftUIStandIns.swift"

  struct Outcome {
    var status: Int32
    var output: String
    /// Lines with an error, by file name (errors inside macro expansions are
    /// attributed to the line the compiler names in the file, if any).
    var errorLines: [String: Set<Int>]
  }

  /// Migrates a fixture (a file or a folder under `Fixtures/`), type-checks the
  /// result and expects every error on a line where the migration reported a
  /// warning or an error (or the line after or before it).
  static func expectErrorsOnlyWhereReported(fixture: String, target: MigrationTarget) throws {
    let sources = try inputs(fixture)
    let result = Migrator(target: target).migrate(sources)
    var migrated: [String: String] = [:]
    var reported: [String: Set<Int>] = [:]
    for file in result.files {
      let name = file.path.replacingOccurrences(of: "/", with: "_")
      // SwiftUI re-exports Observation; the stand-ins take SwiftUI's place.
      migrated[name] = file.migrated.replacingOccurrences(of: "import SwiftUI\n", with: "import Observation\n")
      let lines = Self.lineMap(from: file.original, to: file.migrated)
      for finding in result.findings where finding.file == file.path && finding.severity >= .warning {
        let line = lines[finding.line - 1]
        reported[name, default: []].formUnion([line - 1, line, line + 1])
      }
    }
    let outcome = try typeCheck(sources: migrated, withTracking: target == .tracking)
    #expect(outcome.errorLines[standInsFile] == nil, "the stand-ins do not type-check:\n\(outcome.output)")
    for (file, lines) in outcome.errorLines where file != standInsFile {
      let silent = lines.subtracting(reported[file] ?? []).sorted()
      #expect(silent.isEmpty, "\(file): errors on lines \(silent) that the migration did not report\n\(outcome.output)")
    }
  }

  private static func inputs(_ fixture: String) throws -> [SourceFile] {
    let url = Fixtures.root.appendingPathComponent(fixture)
    if url.pathExtension == "swift" {
      return [SourceFile(path: url.deletingLastPathComponent().lastPathComponent + ".swift", text: try Fixtures.text(fixture))]
    }
    return try Fixtures.sources(in: fixture)
  }

  /// For each line of `old` (by index), its 1-based line in `new`: the same line if
  /// it survived, otherwise the line where it was replaced.
  static func lineMap(from old: String, to new: String) -> [Int] {
    let a = old.split(separator: "\n", omittingEmptySubsequences: false)
    let b = new.split(separator: "\n", omittingEmptySubsequences: false)
    var map = [Int](repeating: 1, count: a.count + 1)
    var nextNew = 0
    for operation in LineDiff.operations(from: a, to: b) {
      switch operation {
      case .equal(let o, let n):
        map[o] = n + 1
        nextNew = n + 1
      case .delete(let o): map[o] = nextNew + 1
      case .insert(let n): nextNew = n + 1
      }
    }
    return map
  }

  static func typeCheck(sources: [String: String], withTracking: Bool, standIns: Bool = true) throws -> Outcome {
    guard let swiftc else { return Outcome(status: -1, output: "no swiftc", errorLines: [:]) }
    return try withTemporaryDirectory(files: sources) { (directory: URL) throws -> Outcome in
      var arguments = ["-typecheck", "-parse-as-library", "-swift-version", "6"]
      if withTracking {
        arguments += [
          "-I", debugBuild.appendingPathComponent("Modules").path,
          "-Xcc", "-fmodule-map-file=" + debugBuild.appendingPathComponent("CTrackingSupport.build/module.modulemap").path,
          "-Xcc", "-I" + packageRoot.appendingPathComponent("Sources/CTrackingSupport/include").path,
          "-load-plugin-executable", debugBuild.appendingPathComponent("TrackingMacros-tool").path + "#TrackingMacros",
        ]
      }
      if standIns { arguments.append(Fixtures.root.appendingPathComponent("TypeCheck/SwiftUIStandIns.swift").path) }
      arguments += sources.keys.sorted().map { directory.appendingPathComponent($0).path }
      let process = Process()
      process.executableURL = URL(fileURLWithPath: swiftc)
      process.arguments = arguments
      let output = Pipe()
      process.standardOutput = output
      process.standardError = output
      try process.run()
      let data = output.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      let text = String(decoding: data, as: UTF8.self)
      var errorLines: [String: Set<Int>] = [:]
      let prefix = directory.path + "/"
      let standInsPath = Fixtures.root.appendingPathComponent("TypeCheck/SwiftUIStandIns.swift").path
      for line in text.split(separator: "\n") where line.contains(": error: ") {
        if line.hasPrefix(standInsPath) {
          errorLines[standInsFile, default: []].insert(0)
          continue
        }
        guard let start = line.range(of: prefix) else { continue }
        let location = line[start.upperBound...].split(separator: ":")
        guard location.count >= 2, let number = Int(location[1]) else { continue }
        errorLines[String(location[0]), default: []].insert(number)
      }
      return Outcome(status: process.terminationStatus, output: text, errorLines: errorLines)
    }
  }
}
