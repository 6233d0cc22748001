import Foundation
import Testing
@_spi(Testing) @testable import Tracking

/// Where SE-0506's text and Apple's shipped code (Swift 6.4, `ObservationTracking.swift`)
/// disagree, this library follows the shipped code; each case is pinned here. See
/// README's "Semantics" and ``TrackingOptions``.
@Suite("SE-0506: where the proposal and Apple's shipped code disagree")
struct ProposalVersusShippedTests {
  /// Case (a). The proposal's "Behavior & Example Usage" tracks
  /// `[.willSet, .didSet, .deinit]`, changes the property once, and says that
  /// deallocating the object then prints a deinit event. Apple's shipped code cancels
  /// the whole tracking (its deinit observers included) at the first `didSet`, so
  /// nothing follows it. We follow the shipped code: a one-shot tracking is over once
  /// it has delivered its last change event.
  @Test func decided_aTrackingThatEndedAtItsDidSetHearsNoDeinit() {
    let log = EventLog()
    var observable: Counter? = Counter()
    // The proposal's example, names changed (`print` writes to the log).
    _ = withTracking(options: [.willSet, .didSet, .deinit]) {
      observable!.count
    } onChange: { event in
      switch event.kind {
      case .initial: log("initial event")
      case .willSet: log("property will set")
      case .didSet: log("property did set")
      case .deinit: log("an Observable instance deallocated")
      }
    }
    observable!.count += 1
    #expect(log.events == ["property will set", "property did set"])
    observable = nil
    #expect(log.events == ["property will set", "property did set"])
  }

  /// The same rule for a tracking that ends at `willSet` (Apple's shipped code cancels
  /// it there when the options have no `.didSet`), and for one cancelled at `willSet`.
  @Test func decided_aTrackingThatEndedAtItsWillSetHearsNoDeinit() {
    let log = EventLog()
    var ending: Counter? = Counter()
    var cancelling: Counter? = Counter()
    withTracking(options: [.willSet, .deinit]) { _ = ending!.count } onChange: { log("ending \($0.kind)") }
    withTracking(options: [.willSet, .didSet, .deinit]) { _ = cancelling!.count } onChange: { event in
      log("cancelling \(event.kind)")
      event.cancel()
    }
    ending!.count = 1
    cancelling!.count = 1
    ending = nil
    cancelling = nil
    #expect(log.events == ["ending willSet", "cancelling willSet"])
  }

  /// Case (b). The proposal speaks of one deinit event "when the observable type that
  /// is tracked is deinitialized". Apple's shipped code registers a deinit observer
  /// with each registrar the tracking read, and a subclass of an observable class has
  /// a registrar per class level, each of which reports its own deinit. We follow the
  /// shipped code: one event per class level whose properties the tracking read.
  @Test func decided_aSubclassSendsOneDeinitPerClassLevelRead() {
    func deinitEvents(reading read: (OurSubclass) -> Void) -> [String] {
      let log = EventLog()
      var object: OurSubclass? = OurSubclass(log: EventLog())
      withTracking(options: .deinit) { read(object!) } onChange: { event in
        log("\(event.kind) matches=\(event.matches(\OurSubclass.extra))")
      }
      object = nil
      return log.events
    }
    #expect(deinitEvents { _ = $0.a; _ = $0.extra } == ["deinit matches=false", "deinit matches=false"])
    #expect(deinitEvents { _ = $0.extra } == ["deinit matches=false"])
    #expect(deinitEvents { _ = $0.a; _ = $0.b } == ["deinit matches=false"])
  }

  /// Not one of the two cases, but where this library also chooses: Apple's shipped
  /// code ignores `cancel()` at `deinit` (the event has no tracking to cancel); the
  /// proposal says cancelling prevents any further event. We follow the proposal: a
  /// deinit-only tracking over several objects can stop at the first.
  @Test func chosen_cancellingAtDeinitStopsTheDeinitsOfTheOtherObjects() {
    let log = EventLog()
    var first: Counter? = Counter()
    var second: Counter? = Counter()
    withTracking(options: .deinit) { _ = first!.count; _ = second!.count } onChange: { event in
      log("\(event.kind)")
      event.cancel()
    }
    first = nil
    second = nil
    #expect(log.events == ["deinit"])
  }
}
