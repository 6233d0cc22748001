import Testing
@_spi(Testing) @testable import Tracking

/// The registrar's observed mask: the lock-free test every mutation makes.
@Suite("Observed mask")
struct ObservedMaskTests {
  static func storage(_ object: AnyObject) -> RegistrarStorage {
    Mirror(reflecting: object).children.compactMap { $0.value as? TrackingRegistrar }.first!.storage
  }

  /// The observers installed on `object`, finished ones not yet swept included.
  static func entryCount(of object: AnyObject) -> Int { storage(object).entryCount }

  @Test func onlyWatchedPropertiesAreMarkedAndFiringClearsThem() {
    let counter = Counter()
    let storage = Self.storage(counter)
    #expect(!storage.hasObservers)
    withTracking { _ = counter.label } onChange: {}
    // `count` is property 0, `label` property 1 (declaration order).
    #expect(storage.observes(1))
    #expect(!storage.observes(0))
    counter.count = 5  // unwatched: no lock, nothing fires, the mask stays
    #expect(storage.observes(1))
    counter.label = "x"
    #expect(!storage.observes(1))
    #expect(!storage.hasObservers)
  }

  @Test func cancelledObserversLeaveTheMaskAtTheNextPass() {
    let counter = Counter()
    let storage = Self.storage(counter)
    let token = withCancellableTracking { _ = counter.count } onChange: {}.tracking
    #expect(storage.observes(0))
    token.cancel()
    counter.count = 1  // the pass drops the cancelled entry
    #expect(!storage.hasObservers)
  }

  @Test func highPropertyNumbersShareTheTopBit() {
    #expect(RegistrarStorage.maskBit(0) == 1)
    #expect(RegistrarStorage.maskBit(Int.bitWidth - 2) == 1 << (Int.bitWidth - 2))
    #expect(RegistrarStorage.maskBit(Int.bitWidth - 1) == Int.min)
    #expect(RegistrarStorage.maskBit(RegistrarStorage.firstDynamicID) == Int.min)
    var set = PropertySet(3)
    set.insert(RegistrarStorage.firstDynamicID)
    #expect(RegistrarStorage.mask(of: set) == (1 << 3) | Int.min)
  }

  @Test func keyPathNumberedPropertiesStillFire() {
    let model = HandWritten()
    let fired = EventLog()
    withTracking { _ = model.manual } onChange: { fired("manual") }
    model.manual = 1
    #expect(fired.events == ["manual"])
  }
}
