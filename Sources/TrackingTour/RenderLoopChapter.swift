@_spi(Testing) import Tracking
import TrackingCombine

// The Combine parts need Apple's Combine, or OpenCombine through the package trait
// (`swift run --traits OpenCombine tracking-tour`); without either they are skipped.
#if canImport(Combine)
  import Combine
#elseif OpenCombine
  import OpenCombine
#endif

  /// A model with ten tracked properties.
  @MainActor @Trackable final class TourDashboard {
    var p0 = 0
    var p1 = 0
    var p2 = 0
    var p3 = 0
    var p4 = 0
    var p5 = 0
    var p6 = 0
    var p7 = 0
    var p8 = 0
    var p9 = 0

    static let properties: [ReferenceWritableKeyPath<TourDashboard, Int>] = [
      \.p0, \.p1, \.p2, \.p3, \.p4, \.p5, \.p6, \.p7, \.p8, \.p9,
    ]
  }

#if canImport(Combine) || OpenCombine
  /// The same model as a legacy `ObservableObject`.
  @MainActor final class TourLegacyDashboard: ObservableObject {
    @Published var p0 = 0
    @Published var p1 = 0
    @Published var p2 = 0
    @Published var p3 = 0
    @Published var p4 = 0
    @Published var p5 = 0
    @Published var p6 = 0
    @Published var p7 = 0
    @Published var p8 = 0
    @Published var p9 = 0

    static let properties: [ReferenceWritableKeyPath<TourLegacyDashboard, Int>] = [
      \.p0, \.p1, \.p2, \.p3, \.p4, \.p5, \.p6, \.p7, \.p8, \.p9,
    ]
  }
#endif

  /// A render loop over 100 components, over a tracked model and over a legacy one;
  /// then a key-path publisher and a scheduled loop.
  @MainActor
  enum RenderLoopChapter {
    static func run() async {
      Narrator.chapter("Render loop: 100 components over a @Trackable model with 10 properties")
      let dashboard = TourDashboard()
      let loop = RenderLoop()
      for i in 0..<100 {
        let property = TourDashboard.properties[i % 10]
        loop.register(name: "component \(i)") { _ = dashboard[keyPath: property] }
      }
      Narrator.say("registered \(loop.componentCount) components: \(loop.totalRuns) first runs")
      dashboard.p3 = 1
      Narrator.say("p3 = 1 marks \(loop.dirtyCount) components dirty")
      Narrator.say("one cycle re-runs \(loop.runCycle()) components (those that read p3)")
      dashboard.p3 = 2
      dashboard.p7 = 1
      dashboard.p3 = 3
      Narrator.say("p3, p7, p3 again: the next cycle re-runs \(loop.runCycle()), each once")

      #if canImport(Combine) || OpenCombine
      Narrator.chapter("Render loop: the same scene over an ObservableObject model")
      let legacy = TourLegacyDashboard()
      let legacyLoop = RenderLoop()
      for i in 0..<100 {
        let property = TourLegacyDashboard.properties[i % 10]
        // objectWillChange says only "something will change", so each component
        // depends on the whole object.
        legacyLoop.register(name: "component \(i)") { _ = legacy.tracked[keyPath: property] }
      }
      legacy.p3 = 1
      Narrator.say("p3 = 1 marks \(legacyLoop.dirtyCount) components dirty")
      Narrator.say("one cycle re-runs \(legacyLoop.runCycle()) components (all of them)")
      #endif

      Narrator.chapter("Render loop: a scheduler turns a burst of changes into one cycle")
      let scheduled = RenderLoop(scheduler: .task)
      let badge = scheduled.register(name: "badge") {
        Narrator.say("badge shows \(dashboard.p0 + dashboard.p1)")
      }
      dashboard.p0 = 10
      dashboard.p1 = 20
      dashboard.p0 = 30
      for _ in 0..<100_000 where scheduled.cycles == 0 { await Task.yield() }  // bounded
      Narrator.say("three changes, \(scheduled.cycles) cycle, badge ran \(scheduled.runCount(of: badge)) times")

      #if canImport(Combine) || OpenCombine
      Narrator.chapter("A Combine publisher of a tracked property")
      var cancellables: Set<AnyCancellable> = []
      dashboard.publisher(for: \.p5, timing: .willSet)
        .sink { Narrator.say("willSet: p5 was \($0)") }
        .store(in: &cancellables)
      dashboard.publisher(for: \.p5)
        .sink { Narrator.say("didSet: p5 is now \($0)") }
        .store(in: &cancellables)
      dashboard.p5 = 1
      dashboard.p5 = 2
      cancellables.removeAll()
      dashboard.p5 = 3
      Narrator.say("p5 = 3 after cancelling: nothing published")
      #else
      Narrator.chapter("Combine: skipped (run with --traits OpenCombine where Combine does not exist)")
      #endif
    }
  }
