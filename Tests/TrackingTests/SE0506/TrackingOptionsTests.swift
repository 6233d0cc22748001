import Foundation
import Testing
@_spi(Testing) @testable import Tracking

/// SE-0506's one-shot rules, each test naming the rule it checks (quoted from the
/// proposal's "Detailed design", in our words).
@Suite("SE-0506: one-shot tracking with options and events")
struct TrackingOptionsTests {
  @Test func rule_emptyOptionsInstallNothing() {
    let counter = Counter()
    let log = EventLog()
    let value = withTracking(options: []) { counter.count } onChange: { log("\($0.kind)") }
    #expect(value == 0)
    #expect(ObservedMaskTests.storage(counter).entryCount == 0)
    counter.count = 1
    #expect(log.events.isEmpty)
  }

  @Test func rule_willSetOnlyEndsAfterTheFirstWillSet() {
    let counter = Counter()
    let log = EventLog()
    withTracking(options: .willSet) { _ = counter.count } onChange: { event in
      log("\(event.kind) old=\(event.value(of: \Counter.count) ?? -1) now=\(counter.count)")
    }
    counter.count = 1
    counter.count = 2
    #expect(log.events == ["willSet old=0 now=0"])
  }

  @Test func rule_didSetOnlyRunsAfterTheChangeWithTheNewValue() {
    let counter = Counter()
    let log = EventLog()
    withTracking(options: .didSet) { _ = counter.count } onChange: { event in
      log("\(event.kind) new=\(event.value(of: \Counter.count) ?? -1)")
    }
    counter.count = 5
    counter.count = 6
    #expect(log.events == ["didSet new=5"])
  }

  @Test func rule_willSetAndDidSetDeliverBothForOneMutationThenEnd() {
    let counter = Counter()
    let log = EventLog()
    withTracking(options: [.willSet, .didSet]) { _ = counter.count } onChange: { event in
      log("\(event.kind) \(counter.count)")
    }
    counter.count = 1
    counter.count = 2
    #expect(log.events == ["willSet 0", "didSet 1"])
  }

  @Test func rule_cancellingAtWillSetSuppressesTheDidSet() {
    let counter = Counter()
    let log = EventLog()
    withTracking(options: [.willSet, .didSet]) { _ = counter.count } onChange: { event in
      log("\(event.kind)")
      if event.kind == .willSet { event.cancel() }
    }
    counter.count = 1
    #expect(log.events == ["willSet"])
  }

  @Test func rule_matchesIsTrueForTheChangedPropertyOnly() {
    let counter = Counter()
    let log = EventLog()
    withTracking(options: .didSet) { _ = counter.count; _ = counter.label } onChange: { event in
      log("count=\(event.matches(\Counter.count)) label=\(event.matches(\Counter.label))")
    }
    counter.label = "x"
    #expect(log.events == ["count=false label=true"])
  }

  @Test func rule_deinitTellsEveryTrackingThatAskedOncePerObject() {
    let log = EventLog()
    var first: Counter? = Counter()
    let second = Counter()
    withTracking(options: [.didSet, .deinit]) { _ = first!.count; _ = second.count } onChange: { event in
      log("\(event.kind) matches=\(event.matches(\Counter.count))")
    }
    withTracking(options: .deinit) { _ = first!.label } onChange: { event in log("only-deinit \(event.kind)") }
    first = nil
    #expect(log.events.sorted() == ["deinit matches=false", "only-deinit deinit"])
    // The deinit did not end the tracking of the other object.
    second.count = 1
    #expect(log.events.last == "didSet matches=true")
  }

  @Test func rule_withoutDeinitNothingFiresWhenAnObjectGoesAway() {
    let log = EventLog()
    var counter: Counter? = Counter()
    withTracking(options: [.willSet, .didSet]) { _ = counter!.count } onChange: { log("\($0.kind)") }
    withTracking { _ = counter!.count } onChange: { log("classic") }
    counter = nil
    #expect(log.events.isEmpty)
  }

  @Test func rule_deinitRunsOnTheDeallocatingThread() async {
    let log = EventLog()
    let holder = Locked<Counter?>(Counter())
    withTracking(options: .deinit) { _ = holder.withLock { $0! }.count } onChange: { _ in
      log(Thread.isMainThread ? "main" : "other")
    }
    await Task.detached { holder.withLock { $0 = nil } }.value
    #expect(log.events == ["other"])
  }

  @Test func beyondApple_theEventSaysWhichObjectAndPropertyChanged() {
    let counter = Counter()
    let seen = Locked<TrackingEvent?>(nil)
    withTracking(options: .willSet) { _ = counter.label } onChange: { event in seen.withLock { $0 = event } }
    counter.label = "renamed"
    let event = seen.withLock { $0 }
    #expect(event?.object == ObjectIdentifier(counter))
    #expect(event?.objectType == Counter.self)
    #expect(event?.keyPath == \Counter.label)
    #expect(event?.isChange(of: counter, \.label) == true)
  }

  @Test func beyondApple_valuesAreReadableOnlyWhileTheCallbackRuns() async {
    let counter = Counter()
    let seen = Locked<TrackingEvent?>(nil)
    withTracking(options: .didSet) { _ = counter.count } onChange: { event in
      #expect(event.value(of: \Counter.count) == 3)
      seen.withLock { $0 = event }
    }
    counter.count = 3
    let event = seen.withLock { $0 }!
    #expect(event.value(of: \Counter.count) == nil)  // after the callback: not read any more
    let later = await Task.detached { event.value(of: \Counter.count) }.value
    #expect(later == nil)
    #expect(event.kind == .didSet)  // what the event says stays valid
  }

  @Test func optionsAreASetAlgebraWrittenAsAnArrayLiteral() {
    var options: TrackingOptions = [.willSet, .didSet]
    #expect(options.contains(.willSet) && options.contains(.didSet) && !options.contains(.deinit))
    #expect(options.remove(.willSet) == .willSet)
    #expect(options == .didSet)
    #expect(options.insert(.deinit).inserted)
    #expect(options == [.didSet, .deinit])
    #expect(TrackingOptions().isEmpty)
    #expect("\(options)" == "[.didSet, .deinit]")
  }
}
