/// How serious a ``Finding`` is.
public enum Severity: String, Sendable, Codable, Comparable {
  /// Informational: something the tool did on purpose that deserves a look.
  case note
  /// Needs manual work, or may be an observation bug.
  case warning
  /// The file could not be processed (for example, it does not parse).
  case error

  private var rank: Int {
    switch self {
    case .note: 0
    case .warning: 1
    case .error: 2
    }
  }

  public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}

/// Stable identifiers for everything the tool reports.
///
/// The raw values appear in the JSON report and at the end of each compiler-style
/// line, so scripts can filter on them. Do not rename them.
public enum Rule: String, Sendable, Codable, CaseIterable {
  /// The file does not parse; it was left untouched.
  case parseError = "parse-error"
  /// A stored property that was not `@Published` is now explicitly ignored.
  case ignoredProperty = "ignored-property"
  /// A stored property whose changes were announced by hand (`objectWillChange.send()`)
  /// stays tracked.
  case announcedProperty = "announced-property"
  /// A stored property the macro cannot track (`lazy`) that views relied on.
  case untrackableProperty = "untrackable-property"
  /// A class with an attached macro the tool cannot see through (it may generate
  /// `@Published` members): left an `ObservableObject`.
  case attachedMacro = "attached-macro"
  /// `model.$property` of an `@AppStorage` property that becomes computed.
  case storageBinding = "storage-binding"
  /// A deployment target older than the migrated code needs (iOS 17, macOS 14…).
  case deploymentTarget = "deployment-target"
  /// A subclass of a migrated class also received the macro.
  case migratedSubclass = "migrated-subclass"
  /// A class `private` inside another type: left an `ObservableObject` (neither macro's
  /// conformance can see it).
  case privateNestedModel = "private-nested-model"
  /// `$property` publisher use of a formerly `@Published` property.
  case publisherUse = "publisher-use"
  /// `objectWillChange` use.
  case objectWillChange = "object-will-change"
  /// `ObservableObject` conformance the tool cannot rewrite (e.g. in an extension).
  case unsupportedConformance = "unsupported-conformance"
  /// A property wrapper or modifier whose object type is not among the inputs.
  case unknownType = "unknown-type"
  /// `StateObject(wrappedValue:)` initialisation that needs manual rewriting.
  case stateObjectInit = "state-object-init"
  /// A `$property` Combine pipeline rewritten to the key-path publisher, with the
  /// differences that remain.
  case publisherConverted = "publisher-converted"
  /// An object now held in `@State` whose initializer starts work (a task, a
  /// subscription): SwiftUI may create and discard many instances.
  case stateInitSideEffects = "state-init-side-effects"
  /// `ObservableObject` used as a generic constraint or protocol refinement.
  case observableConstraint = "observable-constraint"
  /// A property wrapper (such as `@AppStorage`) inside a migrated model.
  case modelPropertyWrapper = "model-property-wrapper"
  /// Synthesized `Codable` conformance that the migration affects.
  case codableModel = "codable-model"
  /// An `ObservableObject`-era construct that no rule handled (a tool gap).
  case unhandledSite = "unhandled-site"
  /// The migrated text would not parse (a tool bug); the file was left unchanged.
  case internalError = "internal-error"
  /// Short-circuit condition that may skip an observable read.
  case shortCircuit = "short-circuit-read"
  /// Observation started inside an initializer.
  case observationInInit = "observation-in-init"
  /// One-shot tracking `onChange` closure reading the value it tracks.
  case onChangeReadsOldValue = "onchange-old-value"
}

/// One diagnostic produced by the migration or the lint rules.
public struct Finding: Sendable, Codable, Hashable {
  /// The path of the file, as given to the tool.
  public var file: String
  /// 1-based line.
  public var line: Int
  /// 1-based column, in UTF-8 bytes (as compilers report it).
  public var column: Int
  /// How serious the finding is.
  public var severity: Severity
  /// Which rule produced it (stable identifier).
  public var rule: Rule
  /// Human-readable explanation, including what to do.
  public var message: String

  /// Creates a finding.
  public init(file: String, line: Int, column: Int, severity: Severity, rule: Rule, message: String) {
    self.file = file
    self.line = line
    self.column = column
    self.severity = severity
    self.rule = rule
    self.message = message
  }

  /// The finding formatted like a compiler diagnostic:
  /// `file:line:col: warning: message [rule]`.
  public var compilerStyle: String {
    "\(file):\(line):\(column): \(severity.rawValue): \(message) [\(rule.rawValue)]"
  }
}
