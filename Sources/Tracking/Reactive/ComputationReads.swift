/// The computations a run read, in the order it first read them, each with the version
/// it saw: what a pending node pulls before it runs (see ``Computation/ensureCurrent(_:)``).
struct ComputationReads {
  struct Read {
    let computation: Computation
    let version: UInt64
  }

  private var reads = SmallList<Read>()

  var isEmpty: Bool { reads.isEmpty }

  var count: Int { reads.count }

  subscript(index: Int) -> Read { reads[index] }

  /// Records a read. The caller records each computation once per run (on the run's
  /// first read of its object; see ``AccessList/record(_:_:type:computation:version:)``).
  @inline(__always)
  mutating func append(_ computation: Computation, version: UInt64) {
    reads.append(Read(computation: computation, version: version))
  }

  /// Adds the reads of a nested scope that this one has not made.
  mutating func merge(_ other: ComputationReads) {
    other.reads.forEach { read in
      if !reads.contains(where: { $0.computation === read.computation }) { reads.append(read) }
    }
  }

  func forEach(_ body: (Read) -> Void) { reads.forEach(body) }

  /// Whether one of the computations changed since it was read, or may have (it is
  /// dirty or pending): checked once a new observer is installed on them.
  var changedSinceRead: Bool {
    reads.contains { $0.computation.hasChanged(since: $0.version) }
  }
}
