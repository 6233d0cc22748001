import Testing
@_spi(Testing) import Tracking

/// Collects the cycles a loop schedules, so tests decide when they run.
final class ManualScheduler: @unchecked Sendable {
  private let pending = Received<@MainActor @Sendable () -> Void>()
  private(set) var taken = 0

  var scheduler: RenderLoopScheduler {
    RenderLoopScheduler { [pending] cycle in pending.append(cycle) }
  }

  var scheduledCount: Int { pending.values.count }

  /// Runs the cycles scheduled since the last call, in order.
  @MainActor func runPending() {
    let cycles = pending.values.dropFirst(taken)
    taken += cycles.count
    for cycle in cycles { cycle() }
  }
}

@MainActor
@Suite("Render loop")
struct RenderLoopTests {
  @Test func registrationRunsTheComponentOnce() {
    let scene = Scene()
    let loop = RenderLoop()
    let id = loop.register(name: "title") { _ = scene.title }
    #expect(loop.runCount(of: id) == 1)
    #expect(loop.totalRuns == 1)
    #expect(loop.name(of: id) == "title")
    #expect(loop.dirtyCount == 0)
  }

  @Test func aChangeMarksDirtyOnlyItsReaders() {
    let scene = Scene()
    let loop = RenderLoop()
    let title = loop.register { _ = scene.title }
    let count = loop.register { _ = scene.count }
    let both = loop.register { _ = (scene.title, scene.count) }
    scene.count = 1
    #expect(loop.isDirty(count) && loop.isDirty(both))
    #expect(!loop.isDirty(title))
    #expect(loop.runCycle() == 2)
    #expect(loop.runCount(of: title) == 1)
    #expect(loop.runCount(of: count) == 2)
    #expect(loop.runCount(of: both) == 2)
    #expect(loop.dirtyCount == 0)
  }

  @Test func nothingRunsBeforeTheCycle() {
    let scene = Scene()
    let loop = RenderLoop()
    let seen = Received<Int>()
    loop.register { seen.append(scene.count) }
    scene.count = 1
    scene.count = 2
    #expect(seen.values == [0])
    loop.runCycle()
    #expect(seen.values == [0, 2])
  }

  @Test func aCycleRunsDirtyComponentsInRegistrationOrder() {
    let scene = Scene()
    let loop = RenderLoop()
    let order = Received<String>()
    loop.register(name: "a") { _ = scene.count; order.append("a") }
    loop.register(name: "b") { _ = scene.title; order.append("b") }
    loop.register(name: "c") { _ = scene.count; order.append("c") }
    loop.register(name: "d") { _ = scene.title; order.append("d") }
    scene.title = "first"   // b and d become dirty before a and c
    scene.count = 1
    loop.runCycle()
    #expect(order.values == ["a", "b", "c", "d", "a", "b", "c", "d"])
  }

  @Test func aComponentRunsOncePerCycleHoweverManyOfItsPropertiesChanged() {
    let scene = Scene()
    let loop = RenderLoop()
    let id = loop.register { _ = (scene.title, scene.count, scene.detail) }
    scene.title = "x"
    scene.count = 3
    scene.detail = "y"
    scene.count = 4
    #expect(loop.dirtyCount == 1)
    #expect(loop.runCycle() == 1)
    #expect(loop.runCount(of: id) == 2)
    #expect(loop.runCycle() == 0)
    #expect(loop.cycles == 2)
  }

  @Test func reTrackingFollowsConditionalReads() {
    let scene = Scene()
    let loop = RenderLoop()
    let id = loop.register { _ = scene.showsDetail ? scene.detail : "" }
    scene.detail = "not read yet"
    #expect(loop.dirtyCount == 0)
    scene.showsDetail = true
    loop.runCycle()
    scene.detail = "now read"
    #expect(loop.isDirty(id))
    loop.runCycle()
    scene.showsDetail = false
    loop.runCycle()
    scene.detail = "no longer read"
    #expect(loop.dirtyCount == 0)
    #expect(loop.runCount(of: id) == 4)
  }

  @Test func componentsStayTrackedAfterEveryCycle() {
    let scene = Scene()
    let loop = RenderLoop()
    let id = loop.register { _ = scene.count }
    for value in 1...5 {
      scene.count = value
      #expect(loop.runCycle() == 1)
    }
    #expect(loop.runCount(of: id) == 6)
    #expect(loop.totalRuns == 6)
    #expect(loop.cycles == 5)
  }

  @Test func aWriteDuringACycleDirtiesItsReadersForTheNextCycle() {
    let scene = Scene()
    let loop = RenderLoop()
    let seen = Received<String>()
    loop.register(name: "reader") { seen.append(scene.title) }
    loop.register(name: "writer") { scene.title = "count \(scene.count)" }
    #expect(loop.runCycle() == 1)   // the reader, dirtied by the writer's first run
    scene.count = 1
    #expect(loop.runCycle() == 1)   // the writer; it dirties the reader
    #expect(loop.dirtyCount == 1)
    #expect(loop.runCycle() == 1)
    #expect(seen.values == ["title", "count 0", "count 1"])
  }

  @Test func unregisteringStopsReRunsAndReleasesTheUpdate() {
    let scene = Scene()
    let loop = RenderLoop()
    weak var weakWitness: Witness?
    var id: RenderLoop.ComponentID?
    do {
      let witness = Witness()
      weakWitness = witness
      id = loop.register { _ = (witness, scene.count) }
    }
    scene.count = 1
    #expect(loop.dirtyCount == 1)
    loop.unregister(id!)
    #expect(weakWitness == nil)
    #expect(loop.dirtyCount == 0)
    #expect(loop.runCycle() == 0)
    #expect(loop.componentCount == 0)
    #expect(scene.observerCount == 0)
  }

  @Test func releasingTheLoopCancelsItsTrackings() {
    let scene = Scene()
    weak var weakLoop: RenderLoop?
    do {
      let loop = RenderLoop()
      weakLoop = loop
      loop.register { _ = scene.count }
      loop.register { _ = scene.title }
      #expect(scene.observerCount == 2)
    }
    #expect(weakLoop == nil)
    // Cancelled trackings are dropped the next time their registrar looks.
    scene.count = 1
    scene.title = "x"
    #expect(scene.observerCount == 0)
  }

  @Test func theSchedulerGetsOneCyclePerBurst() {
    let scene = Scene()
    let manual = ManualScheduler()
    let loop = RenderLoop(scheduler: manual.scheduler)
    let a = loop.register { _ = scene.count }
    let b = loop.register { _ = scene.title }
    #expect(manual.scheduledCount == 0)
    scene.count = 1
    scene.title = "t"
    scene.count = 2
    #expect(manual.scheduledCount == 1)
    #expect(loop.isCycleScheduled)
    manual.runPending()
    #expect(loop.cycles == 1)
    #expect(loop.runCount(of: a) == 2 && loop.runCount(of: b) == 2)
    #expect(!loop.isCycleScheduled)
    scene.title = "again"
    #expect(manual.scheduledCount == 2)
    manual.runPending()
    #expect(loop.runCount(of: b) == 3 && loop.runCount(of: a) == 2)
  }

  @Test func changesFromAnotherThreadMarkDirty() async {
    let scene = Scene()
    let loop = RenderLoop()
    let id = loop.register { _ = scene.count }
    await Task.detached { scene.count = 7 }.value
    #expect(loop.isDirty(id))
    loop.runCycle()
    #expect(loop.runCount(of: id) == 2)
  }

  @Test func theTaskSchedulerRunsACycleOnTheMainActor() async {
    let scene = Scene()
    let loop = RenderLoop(scheduler: .task)
    let seen = Received<Int>()
    loop.register { seen.append(scene.count) }
    scene.count = 1
    scene.count = 2
    // The cycle is a main-actor task; wait for it by yielding until it has run.
    for _ in 0..<100_000 where loop.cycles == 0 { await Task.yield() }  // bounded
    #expect(seen.values == [0, 2])
    #expect(loop.cycles == 1)
  }
}
