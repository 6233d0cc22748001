import Testing
import Tracking

/// The standard library's `OptionSet` with the same three bits: the reference every
/// `SetAlgebra` operation of ``TrackingOptions`` is compared with.
private struct ReferenceOptions: OptionSet, Hashable {
  let rawValue: Int
}

@Suite("Tracking options as a set")
struct TrackingOptionsSetAlgebraTests {
  /// Every subset of the three options, as ours and as the reference.
  private static let all: [(TrackingOptions, ReferenceOptions)] = (0..<8).map { bits in
    var ours: TrackingOptions = []
    if bits & 1 != 0 { ours.insert(.willSet) }
    if bits & 2 != 0 { ours.insert(.didSet) }
    if bits & 4 != 0 { ours.insert(.deinit) }
    return (ours, ReferenceOptions(rawValue: bits))
  }

  /// The reference value with the same options as `options`.
  private func reference(_ options: TrackingOptions) -> ReferenceOptions {
    Self.all.first { $0.0 == options }!.1
  }

  @Test func everyOperationAgreesWithOptionSetOnEveryPair() {
    for (a, referenceA) in Self.all {
      for (b, referenceB) in Self.all {
        #expect(reference(a.union(b)) == referenceA.union(referenceB))
        #expect(reference(a.intersection(b)) == referenceA.intersection(referenceB))
        #expect(reference(a.symmetricDifference(b)) == referenceA.symmetricDifference(referenceB))
        #expect(a.contains(b) == referenceA.contains(referenceB))
        #expect(a.isSubset(of: b) == referenceA.isSubset(of: referenceB))
        #expect(a.isDisjoint(with: b) == referenceA.isDisjoint(with: referenceB))
        #expect((a == b) == (referenceA == referenceB))

        var ours = a
        var theirs = referenceA
        let inserted = ours.insert(b)
        let referenceInserted = theirs.insert(referenceB)
        #expect(inserted.inserted == referenceInserted.inserted)
        #expect(reference(inserted.memberAfterInsert) == referenceInserted.memberAfterInsert)
        #expect(reference(ours) == theirs)

        ours = a
        theirs = referenceA
        #expect(ours.remove(b).map(reference) == theirs.remove(referenceB))
        #expect(reference(ours) == theirs)

        ours = a
        theirs = referenceA
        #expect(ours.update(with: b).map(reference) == theirs.update(with: referenceB))
        #expect(reference(ours) == theirs)

        for (form, referenceForm) in [
          ({ (x: inout TrackingOptions) in x.formUnion(b) }, { (x: inout ReferenceOptions) in x.formUnion(referenceB) }),
          ({ $0.formIntersection(b) }, { $0.formIntersection(referenceB) }),
          ({ $0.formSymmetricDifference(b) }, { $0.formSymmetricDifference(referenceB) }),
        ] {
          ours = a
          theirs = referenceA
          form(&ours)
          referenceForm(&theirs)
          #expect(reference(ours) == theirs)
        }
      }
    }
  }

  @Test func theDescriptionIsAnArrayLiteral() {
    #expect(TrackingOptions().description == "[]")
    #expect(TrackingOptions.didSet.description == "[.didSet]")
    #expect(([.deinit, .willSet] as TrackingOptions).description == "[.willSet, .deinit]")
    #expect(([.willSet, .didSet, .deinit] as TrackingOptions).description == "[.willSet, .didSet, .deinit]")
  }

  @Test func equalOptionsHashAlike() {
    let a: TrackingOptions = [.willSet, .didSet]
    var b: TrackingOptions = [.didSet]
    b.insert(.willSet)
    #expect(Set([a, b]).count == 1)
  }
}
