import Testing

@testable import Tracking

/// A run finds its link to a property's source by the object's address. A deallocated
/// object's address is often reused at once by the next object of its size; the
/// storage detaches its sources before that can happen, so a new object at an old
/// address is linked to, not mistaken for the old one (whose sources it does not have).
@Suite struct AddressReuseTests {
  final class Holder: @unchecked Sendable {
    var model: Counter? = Counter()
  }

  /// Frees the holder's model and makes a new one, up to 20 times until the new
  /// model's registrar storage sits where the old one's was; returns whether it did.
  private static func replaceReusingAddress(_ holder: Holder) -> Bool {
    for _ in 0..<20 {
      let old = ObjectIdentifier(ObservedMaskTests.storage(holder.model!))
      holder.model = nil
      holder.model = Counter()
      if ObjectIdentifier(ObservedMaskTests.storage(holder.model!)) == old { return true }
    }
    return false
  }

  @Test func anObservationFollowsANewObjectAtAFreedAddress() {
    let trigger = Counter()
    let holder = Holder()
    let seen = Received<Int>()
    let token = observe {
      _ = trigger.count
      seen.append(holder.model?.count ?? -1)
    }
    let reused = Self.replaceReusingAddress(holder)
    trigger.count += 1  // a run that reads the new model
    holder.model!.count = 7
    #expect(seen.values.last == 7)
    #expect(ObservedMaskTests.entryCount(of: holder.model!) == 1)
    token.cancel()
    // Whether the allocator reused the address decides whether this test exercised
    // the case; the expectations hold either way.
    _ = reused
  }

  @Test func aSequenceFollowsANewObjectAtAFreedAddress() async {
    let trigger = Counter()
    let holder = Holder()
    let values = TrackedValues { (trigger.count, holder.model?.count ?? -1) }
    var iterator = values.makeAsyncIterator()
    #expect(await iterator.next()?.1 == 0)
    _ = Self.replaceReusingAddress(holder)
    trigger.count += 1
    #expect(await iterator.next()?.0 == 1)
    // That round read the new model: its observer must be installed there (else the
    // next write would be lost, and the wait below would never end).
    let installed = ObservedMaskTests.entryCount(of: holder.model!) == 1
    #expect(installed)
    guard installed else { return }
    holder.model!.count = 7
    #expect(await iterator.next()?.1 == 7)
  }
}
