/// The computations a run read, in the order it first read them, each with the version
/// it saw: what a pending node pulls before it runs (see ``Computation/ensureCurrent(_:)``),
/// and, once the run ends, the computations whose reader lists hold the node (see
/// ``ReactiveNode/adopt(_:end:)``).
struct ComputationReads {
  struct Read {
    let computation: Computation
    let version: UInt64
  }

  private var reads = SmallList<Read>()
  /// Where each computation is, once a run read many (a sum over a thousand values).
  private var index = IdentityIndex()
  /// Beyond this many reads, `index` is kept.
  private static let indexThreshold = 8

  var isEmpty: Bool { reads.isEmpty }

  var count: Int { reads.count }

  subscript(index: Int) -> Read { reads[index] }

  /// Records a read of `computation` at `version`, unless the run read it already
  /// (the first read's version is the one a pull compares with).
  @inline(__always)
  mutating func add(_ computation: Computation, version: UInt64) {
    if reads.isEmpty {
      reads.append(Read(computation: computation, version: version))
    } else {
      addSlow(computation, version: version)
    }
  }

  private mutating func addSlow(_ computation: Computation, version: UInt64) {
    if contains(computation) { return }
    reads.append(Read(computation: computation, version: version))
    index.appended(computation, count: reads.count, threshold: Self.indexThreshold) { reads[$0].computation }
  }

  /// Whether the run read `computation`.
  func contains(_ computation: Computation) -> Bool {
    if index.isBuilt { return index.position(of: computation) { nil } != nil }
    return reads.contains { $0.computation === computation }
  }

  /// Whether `storage` is the registrar storage of a computation the run read.
  func containsStorage(_ storage: RegistrarStorage) -> Bool {
    reads.contains { $0.computation.registrar.storage === storage }
  }

  /// Adds the reads of a nested scope that this one has not made.
  mutating func merge(_ other: ComputationReads) {
    other.reads.forEach { add($0.computation, version: $0.version) }
  }

  func forEach(_ body: (Read) -> Void) { reads.forEach(body) }

  /// Whether `other` read the same computations, in the same order (versions aside):
  /// then the reader links of the previous run stay as they are.
  func readsSameComputations(as other: borrowing ComputationReads) -> Bool {
    guard reads.count == other.reads.count else { return false }
    var position = 0
    while position < reads.count {
      guard reads[position].computation === other.reads[position].computation else { return false }
      position += 1
    }
    return true
  }

  /// Calls `body` with each computation read here and not in `other`.
  func forEachMissing(from other: borrowing ComputationReads, _ body: (Computation) -> Void) {
    reads.forEach { read in
      if !other.contains(read.computation) { body(read.computation) }
    }
  }

  /// Whether one of the computations changed since it was read, or may have (it is
  /// dirty or pending): checked once the node is on their reader lists.
  var changedSinceRead: Bool {
    reads.contains { $0.computation.hasChanged(since: $0.version) }
  }
}
