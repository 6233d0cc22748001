import CTrackingSupport
import Testing
@_spi(Testing) @testable import Tracking

/// The registrar's observed mask: the lock-free test every mutation makes.
@Suite("Observed mask")
struct ObservedMaskTests {
  static func storage(_ object: AnyObject) -> RegistrarStorage {
    Mirror(reflecting: object).children.compactMap { $0.value as? TrackingRegistrar }.first!.storage
  }

  /// What watches `object`: the one-shot observers installed on it (finished ones not
  /// yet swept included) and the nodes of the reactive graph whose latest run read it.
  static func entryCount(of object: AnyObject) -> Int {
    storage(object).entryCount + storage(object).nodeReaders().count
  }

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

  @Test func theWillSetMaskHoldsOnlyObserversThatHearWillSets() {
    let counter = Counter()
    let storage = Self.storage(counter)
    let heard = EventLog()
    withTracking { _ = counter.count } didSet: { _ in heard("didSet") }
    #expect(storage.observes(0))
    #expect(!storage.observesWillSet(0))  // a write skips the will-set scan
    withTracking { _ = counter.count } onChange: { heard("willSet") }
    #expect(storage.observesWillSet(0))
    counter.count = 1
    #expect(heard.events == ["willSet", "didSet"])
    #expect(!storage.observes(0))
    #expect(!storage.observesWillSet(0))
  }

  @Test func highPropertyNumbersShareTheWillSetMasksTopBit() {
    #expect(RegistrarStorage.willSetBit(0) == 1)
    #expect(RegistrarStorage.willSetBit(30) == 1 << 30)
    #expect(RegistrarStorage.willSetBit(31) == Int32.min)
    #expect(RegistrarStorage.willSetBit(RegistrarStorage.firstDynamicID) == Int32.min)
    var set = PropertySet(3)
    set.insert(40)
    #expect(RegistrarStorage.willSetMask(of: set) == (1 << 3) | Int32.min)
    #expect(RegistrarStorage.willSetMask(of: .all) == -1)
    // A key path numbered at run time: its will-set observer is found through bit 31.
    let model = HandWritten()
    let fired = EventLog()
    withTracking { _ = model.manual } onChange: { fired("manual") }
    #expect(Self.storage(model).observesWillSet(RegistrarStorage.firstDynamicID))
    model.manual = 1
    #expect(fired.events == ["manual"])
  }

  @Test func keyPathNumberedPropertiesStillFire() {
    let model = HandWritten()
    let fired = EventLog()
    withTracking { _ = model.manual } onChange: { fired("manual") }
    model.manual = 1
    #expect(fired.events == ["manual"])
  }
}

extension RegistrarStorage {
  /// Whether any observer may be installed (the observed mask is not empty).
  var hasObservers: Bool { tracking_atomic_load_relaxed(&sync.pointee.observedMask) != 0 }

  /// Whether any installed entry's observer is still pending.
  var hasPendingObservers: Bool {
    withLock { state in
      var pending = false
      state.observers.forEach { if $0.isPending { pending = true } }
      return pending
    }
  }
}
