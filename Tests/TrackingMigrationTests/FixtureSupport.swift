import Foundation
import Testing

@testable import TrackingMigration

/// Access to the fixture files next to this source file.
enum Fixtures {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

  /// All `.swift` files under `relativeDirectory`, keyed by their path relative to it.
  static func files(in relativeDirectory: String) throws -> [String: String] {
    let directory = root.appendingPathComponent(relativeDirectory)
    let paths = try SourceCollector.swiftFiles(at: [directory.path])
    var result: [String: String] = [:]
    for path in paths {
      let relative = String(path.dropFirst(directory.path.count + 1))
      result[relative] = try String(contentsOfFile: path, encoding: .utf8)
    }
    return result
  }

  static func text(_ relativePath: String) throws -> String {
    try String(contentsOf: root.appendingPathComponent(relativePath), encoding: .utf8)
  }

  /// The files of a directory as migrator input, in stable order.
  static func sources(in relativeDirectory: String) throws -> [SourceFile] {
    try files(in: relativeDirectory).sorted { $0.key < $1.key }.map { SourceFile(path: $0.key, text: $0.value) }
  }

  /// A fixture as migrator input: the files of a folder (by relative path), or one
  /// file, named after the folder that holds it (`Rules/Model/Before.swift` →
  /// `Model.swift`).
  static func sources(of fixture: String) throws -> [SourceFile] {
    let url = root.appendingPathComponent(fixture)
    guard url.pathExtension == "swift" else { return try sources(in: fixture) }
    return [SourceFile(path: url.deletingLastPathComponent().lastPathComponent + ".swift", text: try text(fixture))]
  }

  /// Whether `relativePath` names a folder.
  static func isDirectory(_ relativePath: String) -> Bool {
    var isDirectory: ObjCBool = false
    return FileManager.default.fileExists(atPath: root.appendingPathComponent(relativePath).path, isDirectory: &isDirectory)
      && isDirectory.boolValue
  }

  /// `Before` and `After` of a fixture folder: two folders of files, or two files.
  static func beforeAndAfter(_ fixture: String) -> (before: String, after: String) {
    isDirectory("\(fixture)/Before") ? ("\(fixture)/Before", "\(fixture)/After") : ("\(fixture)/Before.swift", "\(fixture)/After.swift")
  }
}

extension MigrationResult {
  /// Migrated text by path.
  var migratedByPath: [String: String] {
    Dictionary(uniqueKeysWithValues: files.map { ($0.path, $0.migrated) })
  }

  func findings(_ rule: Rule) -> [Finding] { findings.filter { $0.rule == rule } }

  /// The findings of the rule named `rule` (its raw value).
  func findings(rule: String) -> [Finding] { findings.filter { $0.rule.rawValue == rule } }
}

/// Creates a fresh temporary directory containing `files` and removes it afterwards.
func withTemporaryDirectory<T>(files: [String: String], _ body: (URL) throws -> T) throws -> T {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("tracking-migrate-tests-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }
  for (path, text) in files {
    let url = directory.appendingPathComponent(path)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: url)
  }
  return try body(directory)
}
