#if canImport(Combine) || OpenCombine
@_spi(Testing) import Tracking
import Testing
import TrackingCombine

#if canImport(Combine)
  import Combine
#else
  import OpenCombine
#endif

/// A legacy model that publishes changes through a stored subject of its own.
final class CustomPublisherModel: ObservableObject, @unchecked Sendable {
  let objectWillChange = PassthroughSubject<String, Never>()
  var value = 0 {
    willSet { objectWillChange.send("value") }
  }
}

@Suite("ObservableObject inside tracking")
struct LegacyBridgeTests {
  @Test func withTrackingFiresWhenAPublishedPropertyChanges() {
    let legacy = LegacyModel()
    let fired = Received<String>()
    let name = withTracking { legacy.tracked.name } onChange: {
      fired.append("fired")
    }
    #expect(name == "legacy")
    legacy.count = 1  // any @Published change: the dependency is on the object
    legacy.name = "second change"
    #expect(fired.values == ["fired"])
  }

  @Test func withoutTrackItsReadsAreInvisible() {
    let legacy = LegacyModel()
    let fired = Received<String>()
    let scene = Scene()
    withTracking { _ = (legacy.name, scene.title) } onChange: { fired.append("fired") }
    legacy.name = "unseen"
    #expect(fired.values.isEmpty)
  }

  @Test func aMixedScopeFiresForEitherKindOfModel() {
    let legacy = LegacyModel()
    let scene = Scene()
    let fired = Received<String>()
    withTracking { _ = (legacy.tracked.count, scene.count) } onChange: { fired.append("legacy") }
    withTracking { _ = (legacy.tracked.count, scene.count) } onChange: { fired.append("tracked") }
    legacy.count = 1
    #expect(fired.values == ["legacy", "tracked"])
    withTracking { _ = (legacy.tracked.count, scene.count) } onChange: { fired.append("scene") }
    scene.count = 1
    #expect(fired.values == ["legacy", "tracked", "scene"])
  }

  @Test func willChangeRunsWhileTheLegacyObjectHoldsTheOldValue() {
    let legacy = LegacyModel()
    let seen = Received<Int>()
    withTracking { legacy.track(); _ = legacy.count } willSet: { _ in seen.append(legacy.count) }
    legacy.count = 5
    #expect(seen.values == [0])
  }

  @Test func aCustomStoredPublisherWorksToo() {
    let model = CustomPublisherModel()
    let fired = Received<String>()
    withTracking { _ = model.tracked.value } onChange: { fired.append("fired") }
    model.value = 1
    #expect(fired.values == ["fired"])
  }

  @Test func trackOutsideAScopeSubscribesToNothing() {
    let legacy = LegacyModel()
    legacy.track()
    _ = legacy.tracked.name
    // Asked of this object only: the table is process-wide, and other tests add to
    // it in parallel (comparing its size before and after was flaky).
    #expect(!ChangeBeacons.hasBeacon(for: legacy))
    withTracking { _ = legacy.tracked.name } onChange: {}
    #expect(ChangeBeacons.hasBeacon(for: legacy))
  }

  @Test func oneBeaconPerObject() {
    let legacy = LegacyModel()
    #expect(ChangeBeacons.beacon(for: legacy) === ChangeBeacons.beacon(for: legacy))
    #expect(ChangeBeacons.beacon(for: legacy) !== ChangeBeacons.beacon(for: LegacyModel()))
  }

  @Test func theBeaconAndItsSubscriptionDieWithTheObject() {
    weak var weakLegacy: LegacyModel?
    weak var weakBeacon: ChangeBeacon?
    let fired = Received<String>()
    do {
      let legacy = LegacyModel()
      weakLegacy = legacy
      weakBeacon = ChangeBeacons.beacon(for: legacy)
      withTracking { _ = legacy.tracked.name } onChange: { fired.append("fired") }
      #expect(weakBeacon?.installedObserverCount == 1)
    }
    #expect(weakLegacy == nil)  // a pending tracking does not keep it alive
    #expect(weakBeacon == nil)
    #expect(fired.values.isEmpty)
  }

  @Test func theBeaconLivesAsLongAsTheObject() {
    let legacy = LegacyModel()
    weak var weakBeacon: ChangeBeacon?
    weakBeacon = ChangeBeacons.beacon(for: legacy)  // kept only by the object's publisher
    #expect(weakBeacon != nil)
    let fired = Received<String>()
    withTracking { legacy.track() } onChange: { fired.append("fired") }
    legacy.name = "x"
    #expect(fired.values == ["fired"])
  }

  @Test func observeReRunsForALegacyModel() {
    let legacy = LegacyModel()
    let runs = Received<Int>()
    let token = observe { legacy.track(); runs.append(runs.values.count) }
    legacy.count = 1
    legacy.count = 2
    token.cancel()
    legacy.count = 3
    #expect(runs.values == [0, 1, 2])
  }

  @MainActor
  @Test func trackedValuesOverAMixedModelGetsValuesFromBoth() async {
    let scene = Scene()
    let legacy = LegacyModel()
    var values = TrackedValues { "\(scene.count) \(legacy.tracked.count)" }.makeAsyncIterator()
    #expect(await values.next() == "0 0")
    scene.count = 1
    #expect(await values.next() == "1 0")
    legacy.count = 2  // TrackedValues re-reads after the change is stored
    #expect(await values.next() == "1 2")
    legacy.count = 3
    scene.count = 4  // one transaction
    #expect(await values.next() == "4 3")
  }

  @MainActor
  @Test func aRenderLoopReRunsEveryReaderOfALegacyModel() {
    let legacy = LegacyModel()
    let scene = Scene()
    let loop = RenderLoop()
    let nameReader = loop.register { _ = legacy.tracked.name }
    let countReader = loop.register { _ = legacy.tracked.count }
    let sceneReader = loop.register { _ = scene.count }
    legacy.count = 1
    #expect(loop.runCycle() == 2)
    #expect(loop.runCount(of: nameReader) == 2)
    #expect(loop.runCount(of: countReader) == 2)
    #expect(loop.runCount(of: sceneReader) == 1)
  }

  @Test func aTrackingPublisherSeesLegacyModels() {
    let legacy = LegacyModel()
    let seen = Received<Int>()
    let cancellable = TrackingPublisher(timing: .willSet) { legacy.tracked.count }
      .sink { seen.append($0) }
    legacy.count = 1
    legacy.count = 2
    #expect(seen.values == [0, 1])
    cancellable.cancel()
  }
}
#endif
