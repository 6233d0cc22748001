/// How many sites (see ``SiteKind``) a run found, converted and reported.
///
/// Every site ends in exactly one column: *converted* (rewritten into code meant to
/// build, possibly with a note), *kept* (left as it is because it stays valid: the
/// wrappers of an `ObservableObject` declared in another module, with a note),
/// *reported* (left for a person, with a warning or error that names it) or
/// *unhandled* (no rule took it: a gap in the tool, reported with an `unhandled-site`
/// warning so that it is never silent).
public struct MigrationSummary: Sendable, Codable, Equatable {
  /// Counts for one kind of site, or for all of them.
  public struct Counts: Sendable, Codable, Equatable {
    /// Sites found in the input.
    public var sites = 0
    /// Sites rewritten with no warning.
    public var converted = 0
    /// Sites left unchanged because they stay valid after migration.
    public var kept = 0
    /// Sites covered by a warning or an error.
    public var reported = 0
    /// Sites no rule handled (each also gets an `unhandled-site` warning).
    public var unhandled = 0

    /// Creates zero counts.
    public init() {}
  }

  /// Input files.
  public var files = 0
  /// Input files that could not be parsed (their sites are not counted).
  public var unparsedFiles = 0
  /// All sites.
  public var total = Counts()
  /// Sites by kind (the raw value of ``SiteKind``).
  public var byKind: [String: Counts] = [:]

  /// Creates an empty summary.
  public init() {}

  mutating func add(_ kind: SiteKind, _ outcome: SiteOutcome) {
    var counts = byKind[kind.rawValue, default: Counts()]
    counts.add(outcome)
    byKind[kind.rawValue] = counts
    total.add(outcome)
  }
}

/// What became of one site.
enum SiteOutcome {
  case converted, kept, reported, unhandled
}

extension MigrationSummary.Counts {
  mutating func add(_ outcome: SiteOutcome) {
    sites += 1
    switch outcome {
    case .converted: converted += 1
    case .kept: kept += 1
    case .reported: reported += 1
    case .unhandled: unhandled += 1
    }
  }
}
