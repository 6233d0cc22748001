import Foundation

/// Expands command-line paths into the Swift files to migrate.
public enum SourceCollector {
  /// Errors reading inputs.
  public struct Failure: Error, CustomStringConvertible, Equatable {
    /// The path that could not be used.
    public var path: String
    /// Why.
    public var reason: String
    /// `path: error: reason`, in compiler style.
    public var description: String { "\(path): error: \(reason)" }
  }

  /// Files named directly are taken as they are; directories are searched
  /// recursively for `.swift` files, skipping hidden directories and build
  /// folders (`.build`, `.git`, …). Results are sorted for stable output and
  /// de-duplicated.
  public static func swiftFiles(at paths: [String]) throws(Failure) -> [String] {
    let fileManager = FileManager.default
    var result: [String] = []
    for path in paths {
      var isDirectory: ObjCBool = false
      guard fileManager.fileExists(atPath: path, isDirectory: &isDirectory) else {
        throw Failure(path: path, reason: "no such file or directory")
      }
      guard isDirectory.boolValue else {
        result.append(path)
        continue
      }
      guard let enumerator = fileManager.enumerator(atPath: path) else { continue }
      var found: [String] = []
      while let relative = enumerator.nextObject() as? String {
        let name = (relative as NSString).lastPathComponent
        if name.hasPrefix(".") {
          enumerator.skipDescendants()
          continue
        }
        if name.hasSuffix(".swift") {
          found.append(path.hasSuffix("/") ? path + relative : path + "/" + relative)
        }
      }
      result.append(contentsOf: found.sorted())
    }
    var seen: Set<String> = []
    return result.filter { seen.insert($0).inserted }
  }

  /// Package manifests and Xcode projects that say what the files at `paths` are
  /// built for: those inside the directories given (manifests are among the Swift
  /// files already), and the nearest ones above each path. Sorted, without duplicates.
  public static func projectFiles(around paths: [String]) -> [String] {
    let fileManager = FileManager.default
    var result: Set<String> = []
    func projects(in directory: String) -> [String] {
      let entries = (try? fileManager.contentsOfDirectory(atPath: directory)) ?? []
      return entries.filter { $0.hasSuffix(".xcodeproj") }.map { "\(directory)/\($0)/project.pbxproj" }
        .filter { fileManager.fileExists(atPath: $0) }
    }
    for path in paths {
      var isDirectory: ObjCBool = false
      guard fileManager.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
      let start = isDirectory.boolValue ? path : (path as NSString).deletingLastPathComponent
      if isDirectory.boolValue, let enumerator = fileManager.enumerator(atPath: path) {
        while let relative = enumerator.nextObject() as? String {
          let name = (relative as NSString).lastPathComponent
          if name.hasPrefix(".") {
            enumerator.skipDescendants()
          } else if name == "project.pbxproj", (relative as NSString).deletingLastPathComponent.hasSuffix(".xcodeproj") {
            result.insert((path as NSString).appendingPathComponent(relative))
          }
        }
      }
      // Upwards, to the first directory that has a manifest or a project.
      var directory = absolute(start.isEmpty ? "." : start)
      while true {
        let manifest = (directory as NSString).appendingPathComponent("Package.swift")
        let found = (fileManager.fileExists(atPath: manifest) ? [manifest] : []) + projects(in: directory)
        if !found.isEmpty {
          result.formUnion(found)
          break
        }
        let parent = (directory as NSString).deletingLastPathComponent
        if parent == directory || parent.isEmpty { break }
        directory = parent
      }
    }
    return result.sorted()
  }

  /// `path` made absolute (from the current directory) and standardized.
  static func absolute(_ path: String) -> String {
    let full = path.hasPrefix("/") ? path : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(path)
    return (full as NSString).standardizingPath
  }
}
