import Testing
@_spi(Testing) @testable import Tracking

/// The runtime mechanism behind untracked-access diagnostics. Handlers are
/// process-wide and other suites read other types concurrently, so each test keeps
/// only the reports about `Counter`.
@Suite("Required-tracking regions", .serialized)
struct RequiredTrackingTests {
  func withHandler(_ body: (EventLog) -> Void) {
    let reports = EventLog()
    let id = TrackingDiagnostics.addHandler { read in
      if read.typeName.hasSuffix("Counter") { reports("\(read.typeName) \(read.propertyName)") }
    }
    defer { TrackingDiagnostics.removeHandler(id) }
    body(reports)
  }

  @Test func untrackedReadInARequiredRegionIsReported() {
    withHandler { reports in
      let counter = Counter()
      RequiredTracking.run(at: nil) { _ = counter.count }
      #expect(reports.events.count == 1)
      #expect(reports.events.first?.contains("Counter") == true)
      #expect(!isInsideTracking)
    }
  }

  @Test func readsInsideTrackingInsideARequiredRegionAreTrackedNotReported() {
    withHandler { reports in
      let counter = Counter()
      let fired = EventLog()
      RequiredTracking.run(at: nil) {
        withTracking { _ = counter.count } onChange: { fired("fired") }
        #expect(!isInsideTracking)
      }
      counter.count = 1
      #expect(reports.events.isEmpty)
      #expect(fired.events == ["fired"])
    }
  }

  @Test func aRequiredRegionInsideTrackingChangesNothing() {
    withHandler { reports in
      let counter = Counter()
      let fired = EventLog()
      withTracking {
        RequiredTracking.run(at: nil) { _ = counter.count }
      } onChange: {
        fired("fired")
      }
      counter.count = 1
      #expect(reports.events.isEmpty)
      #expect(fired.events == ["fired"])
    }
  }

  @Test func readsOutsideAnyRegionAreNotReported() {
    withHandler { reports in
      _ = Counter().count
      #expect(reports.events.isEmpty)
    }
  }

  /// A derived value that is current is read on a short path (plain bytes, or the end
  /// of a typed read); a required region still sees the read, and a read outside any
  /// region still reports nothing.
  @Test func anUntrackedReadOfACurrentDerivedValueIsReported() {
    let reports = EventLog()
    let id = TrackingDiagnostics.addHandler { read in
      if read.typeName.hasPrefix("Derived<") { reports("\(read.typeName) \(read.propertyName)") }
    }
    defer { TrackingDiagnostics.removeHandler(id) }
    let counter = Counter()
    let doubled = Derived { counter.count * 2 }
    let named = Derived { "count \(counter.count)" }
    _ = (doubled.value, named.value)  // current from here on
    #expect(reports.events.isEmpty)
    RequiredTracking.run(at: nil) {
      #expect(doubled.value == 0)
      #expect(named.value == "count 0")
    }
    #expect(reports.events == ["Derived<Int> value", "Derived<String> value"])
  }
}
