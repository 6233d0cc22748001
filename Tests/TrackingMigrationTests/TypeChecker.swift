import Foundation

@testable import TrackingMigration

/// Type-checks Swift files on Linux with `swiftc -typecheck`, against what the
/// migrated code uses:
///
/// - this package's `Tracking` and `TrackingCombine` modules and macros, and Apple's
///   `Observation` (both exist on Linux), from the package's debug build;
/// - OpenCombine as `Combine` (`-module-alias Combine=OpenCombine`; the debug build
///   has it with the `OpenCombine` trait, which `--enable-all-traits` turns on);
/// - a `SwiftUI` module: stub modules of the Apple surface when `TRACKING_APPLE_STUBS`
///   names their directories (colon-separated, searched before the debug build: the
///   stubs, and this package's modules built against them; when they hold a `Combine`
///   module, it replaces OpenCombine), and otherwise one built from
///   `Fixtures/TypeCheck/SwiftUIStandIns.swift`, whose generic constraints follow
///   Apple's documentation (`Bindable`, `Environment(_:)` and `environment(_:)` need
///   `AnyObject & Observable`; `StateObject`, `ObservedObject`, `EnvironmentObject`
///   and `environmentObject(_:)` need `ObservableObject`).
///
/// An `import` of any other module is blanked out (its line stays, empty), so that the
/// rest of the file is still checked; the types it would have provided are errors,
/// the same before and after migration. See ``DifferentialTypeCheck``.
enum TypeChecker {
  static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  static let debugBuild = packageRoot.appendingPathComponent(".build/debug").resolvingSymlinksInPath()
  static let modules = debugBuild.appendingPathComponent("Modules")
  static let standInsSource = Fixtures.root.appendingPathComponent("TypeCheck/SwiftUIStandIns.swift")

  static let swiftc: String? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    return path.split(separator: ":").map { "\($0)/swiftc" }.first { FileManager.default.isExecutableFile(atPath: $0) }
  }()

  static var isAvailable: Bool {
    #if os(Linux)
      let built = ["Tracking", "TrackingCombine", "OpenCombine"].allSatisfy {
        FileManager.default.fileExists(atPath: modules.appendingPathComponent("\($0).swiftmodule").path)
      }
      return swiftc != nil && built
        && FileManager.default.isExecutableFile(atPath: debugBuild.appendingPathComponent("TrackingMacros-tool").path)
    #else
      return false
    #endif
  }

  /// Directories of Apple-surface stub modules (`TRACKING_APPLE_STUBS`), if any.
  static let appleStubs: [URL] = (ProcessInfo.processInfo.environment["TRACKING_APPLE_STUBS"] ?? "")
    .split(separator: ":").map { URL(fileURLWithPath: String($0)) }

  /// The modules in `directories`, by name.
  static func moduleNames(in directories: [URL]) -> Set<String> {
    Set(directories.flatMap { directory in
      ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasSuffix(".swiftmodule") }
        .map { String($0.dropLast(".swiftmodule".count)) }
    })
  }

  /// The directories searched before the debug build: the stubs, or the stand-ins'
  /// `SwiftUI` module, built once per test process.
  static let appleModules: Result<[URL], TypeCheckFailure> = {
    if moduleNames(in: appleStubs).contains("SwiftUI") { return .success(appleStubs) }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tracking-migrate-standins-\(UUID().uuidString)")
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      let output = try run(
        ["-emit-module", "-parse-as-library", "-swift-version", "6", "-module-name", "SwiftUI",
         "-emit-module-path", directory.appendingPathComponent("SwiftUI.swiftmodule").path]
          + commonArguments(searching: appleStubs) + [standInsSource.path])
      guard output.status == 0 else { return .failure(TypeCheckFailure(message: "the stand-ins do not build:\n\(output.text)")) }
      return .success(appleStubs + [directory])
    } catch {
      return .failure(TypeCheckFailure(message: "\(error)"))
    }
  }()

  struct TypeCheckFailure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
  }

  /// Modules an `import` may name; any other import is blanked out.
  static let knownModules: Set<String> = [
    "Swift", "Foundation", "FoundationEssentials", "Dispatch", "Observation", "Tracking", "TrackingCombine",
    "TrackingTesting", "Combine", "SwiftUI",
  ]

  /// Arguments every invocation takes: search paths (`first` before the debug
  /// build), OpenCombine as `Combine` unless `first` has a `Combine`, the macros.
  private static func commonArguments(searching first: [URL]) -> [String] {
    var arguments: [String] = []
    for directory in first + [modules] { arguments += ["-I", directory.path] }
    if !moduleNames(in: first).contains("Combine") { arguments += ["-module-alias", "Combine=OpenCombine"] }
    arguments += [
      "-Xcc", "-fmodule-map-file=" + debugBuild.appendingPathComponent("CTrackingSupport.build/module.modulemap").path,
      "-Xcc", "-I" + packageRoot.appendingPathComponent("Sources/CTrackingSupport/include").path,
      // OpenCombine's C helpers, which its module needs.
      "-Xcc", "-fmodule-map-file=" + debugBuild.appendingPathComponent("COpenCombineHelpers.build/module.modulemap").path,
      "-Xcc", "-I" + packageRoot.appendingPathComponent(".build/checkouts/OpenCombine/Sources/COpenCombineHelpers/include").path,
      "-load-plugin-executable", debugBuild.appendingPathComponent("TrackingMacros-tool").path + "#TrackingMacros",
    ]
    return arguments
  }

  /// One compiler error: where, and what it says.
  struct Diagnostic: Hashable, CustomStringConvertible {
    var file: String
    var line: Int
    var message: String
    var description: String { "\(file):\(line): error: \(message)" }
  }

  struct Outcome {
    var status: Int32
    var output: String
    /// Errors in the checked files (an error inside a macro expansion is attributed to
    /// the line of the file the compiler names for the expansion).
    var errors: [Diagnostic]
    /// Lines with an error, by file name.
    var errorLines: [String: Set<Int>] {
      errors.reduce(into: [:]) { $0[$1.file, default: []].insert($1.line) }
    }
  }

  /// Apple's UI frameworks, which re-export Foundation.
  static let foundationReexporters: Set<String> = ["AppKit", "UIKit", "Cocoa", "WatchKit"]

  /// What an `import Foundation` brings on Apple's SDKs beyond Linux's Foundation: its
  /// overlay there declares `ObservableObject` and `Published` (typealiases of
  /// Combine's), so a model file that imports only Foundation, or only AppKit or UIKit,
  /// declares an `ObservableObject` with `@Published` properties. Without them such a
  /// model's views would not type-check before migration here, and nothing that uses
  /// the model would be checked.
  static let foundationCombineNames = "import protocol Combine.ObservableObject; import struct Combine.Published"

  /// `text` with every import of a module outside ``knownModules`` (or the modules
  /// in `stubModules`) replaced by an empty line, so that line numbers stay; an import
  /// of Foundation, or of a UI framework that re-exports it, brings what it brings on
  /// Apple's SDKs (see ``foundationCombineNames``), on the same line; an import of a
  /// known module's submodule imports the module.
  static func blankingUnknownImports(in text: String, stubModules: Set<String>) -> String {
    let known = knownModules.union(stubModules)
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    for index in lines.indices {
      let words = lines[index].split(whereSeparator: { $0 == " " || $0 == "\t" })
      guard let importIndex = words.firstIndex(of: "import"),
        words[..<importIndex].allSatisfy({ $0.hasPrefix("@") || ["public", "internal", "package", "private", "fileprivate"].contains($0) }),
        importIndex + 1 < words.count
      else { continue }
      // `import struct Module.Type`: the module comes after the kind.
      let kinds: Set<Substring> = ["struct", "class", "enum", "protocol", "typealias", "func", "var", "let"]
      let path = kinds.contains(words[importIndex + 1]) && importIndex + 2 < words.count ? words[importIndex + 2] : words[importIndex + 1]
      let module = String(path.split(separator: ".").first ?? "")
      let ending = lines[index].hasSuffix("\r") ? "\r" : ""
      let wholeModule = path == words[importIndex + 1]
      if wholeModule && path.contains(".") && known.contains(module) {
        // A Clang submodule (`import Foundation.NSDate`): Linux's modules have none,
        // and a missing module stops the whole check; the module itself is imported.
        lines[index] = (module == "Foundation" ? foundationCombineNames + "; " : "") + "import \(module)" + ending
      } else if wholeModule && module == "Foundation" {
        // Before the import, which may end in a comment.
        lines[index] = foundationCombineNames + "; " + lines[index]
      } else if wholeModule && foundationReexporters.contains(module) && !known.contains(module) {
        lines[index] = "import Foundation; " + foundationCombineNames + ending
      } else if !known.contains(module) {
        lines[index] = ending
      }
    }
    return lines.joined(separator: "\n")
  }

  /// Runs `check`, which waits for compiler processes, on a thread of its own, and waits
  /// for it without blocking. A synchronous test would hold one of the concurrency
  /// runtime's threads (two on a two-core machine) for as long as the compiler runs;
  /// the type-check tests, all at once, starved the asynchronous tests beside them for
  /// two minutes under ThreadSanitizer (a persistence test waiting for a reload).
  static func offThePool<T: Sendable>(_ check: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      Thread { continuation.resume(with: Result { try check() }) }.start()
    }
  }

  /// Type-checks `sources` (path → text) together as one module.
  static func typeCheck(sources: [String: String], swiftVersion: Int = 6) throws -> Outcome {
    let apple = try appleModules.get()
    // A module's files need distinct names: `Views/List.swift` is checked as `Views__List.swift`.
    var names: [String: String] = [:]
    for path in sources.keys { names[path.replacingOccurrences(of: "/", with: "__")] = path }
    let prepared = Dictionary(uniqueKeysWithValues: names.map { name, path in
      (name, blankingUnknownImports(in: sources[path] ?? "", stubModules: moduleNames(in: apple)))
    })
    return try withTemporaryDirectory(files: prepared) { (directory: URL) throws -> Outcome in
      let arguments =
        // One frontend for all files (`-wmo`): each file is checked whatever errors
        // the others have (separate jobs would stop at the first file with errors).
        ["-typecheck", "-wmo", "-parse-as-library", "-swift-version", "\(swiftVersion)", "-module-name", "Checked"]
        + commonArguments(searching: apple) + names.keys.sorted().map { directory.appendingPathComponent($0).path }
      let output = try run(arguments)
      // An error that names no file (a bad argument, a missing module map) means nothing was checked.
      if let fatal = output.text.split(separator: "\n").first(where: { $0.hasPrefix("error:") || $0.hasPrefix("<unknown>:0: error:") }) {
        throw TypeCheckFailure(message: "the compiler could not check the files: \(fatal)")
      }
      let errors = errors(in: output.text, under: directory.path + "/").map { error in
        var error = error
        error.file = names[error.file] ?? error.file
        return error
      }
      return Outcome(status: output.status, output: output.text, errors: errors)
    }
  }

  /// The errors `output` reports in files under `prefix`, by name relative to it.
  static func errors(in output: String, under prefix: String) -> [Diagnostic] {
    var result: [Diagnostic] = []
    var pendingExpansionErrors: [String] = []
    let header = #/^(.+?):([0-9]+):[0-9]+: (error|note|warning): /#
    for line in output.split(separator: "\n") {
      if let start = line.range(of: prefix) {
        // `path:line:column: severity: message` (the path may hold spaces).
        guard let match = line[start.upperBound...].prefixMatch(of: header), let number = Int(match.2) else { continue }
        let file = String(match.1)
        let message = String(line[match.range.upperBound...])
        if match.3 == "error" {
          result.append(Diagnostic(file: file, line: number, message: message))
        } else if message.hasPrefix("expanded code originates here") || message.hasPrefix("in expansion of macro"),
          !pendingExpansionErrors.isEmpty
        {
          // An error in generated code belongs to the code the macro expanded.
          result += pendingExpansionErrors.map { Diagnostic(file: file, line: number, message: $0) }
          pendingExpansionErrors = []
        }
      } else if line.hasPrefix("macro expansion ") || line.contains("@__swiftmacro_"), let range = line.range(of: ": error: ") {
        pendingExpansionErrors.append(String(line[range.upperBound...]))
      }
    }
    return result
  }

  private static func run(_ arguments: [String]) throws -> (status: Int32, text: String) {
    guard let swiftc else { throw TypeCheckFailure(message: "no swiftc on PATH") }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: swiftc)
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }
}
