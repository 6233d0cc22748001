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
}
