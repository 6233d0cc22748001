import SwiftParser
import SwiftSyntax

/// The deployment targets a package manifest (`Package.swift`) or an Xcode project
/// (`project.pbxproj`) declares, checked against what migrated code needs: Apple's
/// `Observation` (`@Observable`), SwiftUI's `@Bindable`, `@Environment(Model.self)` and
/// `.environment(_:)`, and SwiftUI observing models at all, exist from iOS 17, macOS 14,
/// tvOS 17, watchOS 10 and visionOS 1.
enum DeploymentTarget {
  /// One platform requirement, where it is written.
  struct Declaration: Equatable {
    var platform: String
    var version: [Int]
    var line: Int
    var column: Int
  }

  /// The first version of each platform with Observation, by the name the manifest
  /// uses and the Xcode build setting.
  static let platforms: [(manifest: String, setting: String, name: String, minimum: [Int])] = [
    ("iOS", "IPHONEOS_DEPLOYMENT_TARGET", "iOS", [17]),
    ("macOS", "MACOSX_DEPLOYMENT_TARGET", "macOS", [14]),
    ("tvOS", "TVOS_DEPLOYMENT_TARGET", "tvOS", [17]),
    ("watchOS", "WATCHOS_DEPLOYMENT_TARGET", "watchOS", [10]),
    ("visionOS", "XROS_DEPLOYMENT_TARGET", "visionOS", [1]),
    ("macCatalyst", "", "Mac Catalyst", [17]),
  ]

  /// Whether `path` is a file this check reads.
  static func isProjectFile(_ path: String) -> Bool {
    path == "Package.swift" || path.hasSuffix("/Package.swift") || path.hasSuffix(".pbxproj")
  }

  /// The platform versions `file` declares (a manifest or an Xcode project).
  static func declarations(in file: SourceFile) -> [Declaration] {
    file.path.hasSuffix(".pbxproj") ? projectDeclarations(file.text) : manifestDeclarations(file.text)
  }

  /// `.iOS(.v16)`, `.macOS(.v10_15)`, `.watchOS("9.4")` in the `platforms:` argument.
  static func manifestDeclarations(_ text: String) -> [Declaration] {
    let tree = Parser.parse(source: text)
    let converter = SourceLocationConverter(fileName: "Package.swift", tree: tree)
    return tree.tokens(viewMode: .sourceAccurate).compactMap { token -> Declaration? in
      guard let member = token.parent?.parent?.as(MemberAccessExprSyntax.self), member.base == nil,
        member.declName.baseName.id == token.id,
        let call = member.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.id == member.id,
        let platform = platforms.first(where: { $0.manifest == token.text }),
        let argument = call.arguments.first?.expression, isInPlatformsArgument(call)
      else { return nil }
      let version: [Int]?
      if let versionMember = argument.as(MemberAccessExprSyntax.self), versionMember.declName.baseName.text.hasPrefix("v") {
        version = parse(versionMember.declName.baseName.text.dropFirst(), separator: "_")
      } else if let literal = argument.as(StringLiteralExprSyntax.self), let segment = literal.representedLiteralValue {
        version = parse(Substring(segment), separator: ".")
      } else {
        version = nil
      }
      guard let version else { return nil }
      let location = converter.location(for: member.positionAfterSkippingLeadingTrivia)
      return Declaration(platform: platform.manifest, version: version, line: location.line, column: location.column)
    }
  }

  private static func isInPlatformsArgument(_ call: FunctionCallExprSyntax) -> Bool {
    var current = call.parent
    while let node = current {
      if let argument = node.as(LabeledExprSyntax.self) { return argument.label?.text == "platforms" }
      current = node.parent
    }
    return false
  }

  /// `IPHONEOS_DEPLOYMENT_TARGET = 16.1;` and its siblings, each line.
  static func projectDeclarations(_ text: String) -> [Declaration] {
    var result: [Declaration] = []
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let content = line.drop { $0 == " " || $0 == "\t" }
      guard let platform = platforms.first(where: { !$0.setting.isEmpty && content.hasPrefix($0.setting + " = ") }) else {
        continue
      }
      let value = content.dropFirst(platform.setting.count + 3).prefix { $0.isNumber || $0 == "." }
      guard let version = parse(value, separator: ".") else { continue }
      result.append(Declaration(platform: platform.manifest, version: version, line: index + 1, column: line.count - content.count + 1))
    }
    return result
  }

  private static func parse(_ text: Substring, separator: Character) -> [Int]? {
    let parts = text.split(separator: separator).map { Int($0) }
    guard !parts.isEmpty, parts.allSatisfy({ $0 != nil }) else { return nil }
    return parts.compactMap { $0 }
  }

  /// `16`, `16.1`, `10.15`.
  static func format(_ version: [Int]) -> String {
    var parts = version
    while parts.count > 1, parts.last == 0 { parts.removeLast() }
    return parts.map(String.init).joined(separator: ".")
  }

  /// A warning for each platform of each file whose deployment target is older than
  /// migrated code needs (the first such line, per platform and file).
  static func findings(in files: [SourceFile], target: MigrationTarget) -> [Finding] {
    var findings: [Finding] = []
    for file in files where isProjectFile(file.path) {
      var reported: Set<String> = []
      for declaration in declarations(in: file) {
        guard let platform = platforms.first(where: { $0.manifest == declaration.platform }),
          declaration.version.lexicographicallyPrecedes(platform.minimum), reported.insert(platform.manifest).inserted
        else { continue }
        let old = "\(platform.name) \(format(declaration.version))"
        let new = "\(platform.name) \(format(platform.minimum))"
        let message =
          switch target {
          case .apple:
            "this deployment target is \(old), but @Observable, @Bindable and @Environment(Model.self) need \(new): raise it to \(new), or migrate with --target tracking, whose @Trackable models work on earlier versions (their views then read them inside TrackedView and bind with @BindableModel)"
          case .tracking:
            "this deployment target is \(old): SwiftUI observes @Trackable models, and @Bindable, @Environment(Model.self) and .environment(_:) exist, from \(new); raise it to \(new), or on earlier versions wrap what reads a model in TrackedView and use @BindableModel for bindings"
          }
        findings.append(
          Finding(
            file: file.path, line: declaration.line, column: declaration.column, severity: .warning,
            rule: .deploymentTarget, message: message))
      }
    }
    return findings
  }
}
