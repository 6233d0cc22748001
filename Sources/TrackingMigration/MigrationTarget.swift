/// The observation system that migrated code should use.
///
/// The tool performs the steps Apple documents for moving from `ObservableObject`
/// to the `@Observable` macro. By default it targets this package's `@Trackable`
/// macro; ``apple`` targets the Observation framework instead.
public enum MigrationTarget: String, Sendable, CaseIterable, Codable {
  /// `@Trackable` / `@TrackingIgnored` from the `Tracking` module.
  case tracking
  /// `@Observable` / `@ObservationIgnored` from Apple's `Observation` module.
  case apple

  /// The class macro attribute name, without `@`.
  public var macroName: String {
    switch self {
    case .tracking: "Trackable"
    case .apple: "Observable"
    }
  }

  /// The attribute that opts a stored property out of observation, without `@`.
  public var ignoredAttributeName: String {
    switch self {
    case .tracking: "TrackingIgnored"
    case .apple: "ObservationIgnored"
    }
  }

  /// The module that declares ``macroName``.
  public var moduleName: String {
    switch self {
    case .tracking: "Tracking"
    case .apple: "Observation"
    }
  }

  /// Modules whose import already makes ``macroName`` visible.
  ///
  /// SwiftUI re-exports Observation, so a file importing SwiftUI needs no extra
  /// import for the Apple target. Nothing re-exports `Tracking`.
  var satisfyingImports: Set<String> {
    switch self {
    case .tracking: ["Tracking"]
    case .apple: ["Observation", "SwiftUI"]
    }
  }
}

/// Attribute names that mark a class as already using macro-based observation,
/// whichever target produced them.
let observationMacroNames: Set<String> = ["Trackable", "Observable"]
