/// The computations a one-shot tracking scope read, in the order it first read them,
/// each with the version it saw: for a node's run the scope is nested in, which links
/// to them when the scope ends (see ``AccessList/merge(_:)``). A node's run records its
/// own reads in the graph (see ``Graph/recordRead(_:by:version:first:work:)``).
struct ComputationReads {
  struct Read {
    let computation: Computation
    var version: UInt64
  }

  /// The first read: most runs read at most one computation.
  private var first: Read?
  /// The reads after the first, with their index; `nil` until there is a second. One
  /// optional for both, so that a run that read one computation (or none) releases
  /// neither when its reads are destroyed.
  private var more: More?

  struct More {
    var reads: [Read]
    /// Where each computation is, once a run read many (a sum over a thousand values).
    var index = IdentityIndex()
  }

  /// Beyond this many reads, the index is kept.
  private static let indexThreshold = 8

  var isEmpty: Bool { first == nil }

  /// Records a read of `computation` at `version`, unless the run read it already
  /// (the first read's version is the one a pull compares with).
  @inline(__always)
  mutating func add(_ computation: Computation, version: UInt64) {
    if first == nil {
      first = Read(computation: computation, version: version)
    } else {
      addSlow(computation, version: version)
    }
  }

  private mutating func addSlow(_ computation: Computation, version: UInt64) {
    if contains(computation) { return }
    let read = Read(computation: computation, version: version)
    guard var rest = more.take() else {
      more = More(reads: [read])
      return
    }
    // Room for every read up to the index threshold at once, at the third read:
    // growing one by one would reallocate again at the fifth (a sum of five values).
    if rest.reads.count == 1 { rest.reads.reserveCapacity(Self.indexThreshold - 1) }
    rest.reads.append(read)
    // Positions count the first read: position `p` is `reads[p - 1]`.
    let firstComputation = first.unsafelyUnwrapped.computation
    let reads = rest.reads
    rest.index.appended(computation, count: reads.count + 1, threshold: Self.indexThreshold) {
      $0 == 0 ? firstComputation : reads[$0 - 1].computation
    }
    more = rest
  }

  /// Whether the run read `computation`.
  func contains(_ computation: Computation) -> Bool {
    if let index = more?.index, index.isBuilt { return index.position(of: computation) { nil } != nil }
    return contains { $0.computation === computation }
  }

  /// Whether `storage` is the registrar storage of a computation the run read.
  func containsStorage(_ storage: RegistrarStorage) -> Bool {
    contains { $0.computation.registrar.storage === storage }
  }

  /// Adds the reads of a nested scope that this one has not made.
  mutating func merge(_ other: ComputationReads) {
    other.forEach { add($0.computation, version: $0.version) }
  }

  func forEach(_ body: (Read) -> Void) {
    guard let first else { return }
    body(first)
    more?.reads.forEach(body)
  }

  private func contains(where predicate: (Read) -> Bool) -> Bool {
    guard let first else { return false }
    return predicate(first) || (more?.reads.contains(where: predicate) ?? false)
  }
}
