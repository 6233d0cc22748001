import Testing
@testable import Tracking

/// The runtime mechanism behind untracked-access diagnostics. The handler is
/// process-wide, so these tests run one at a time and filter reports by type.
@Suite("Required-tracking regions", .serialized)
struct RequiredTrackingTests {
  func withHandler(_ body: (EventLog) -> Void) {
    let reports = EventLog()
    RequiredTracking.handler.withLock { $0 = { type, property in reports("\(type) \(property)") } }
    defer { RequiredTracking.handler.withLock { $0 = nil } }
    body(reports)
  }

  @Test func untrackedReadInARequiredRegionIsReported() {
    withHandler { reports in
      let counter = Counter()
      RequiredTracking.run { _ = counter.count }
      #expect(reports.events.count == 1)
      #expect(reports.events.first?.contains("Counter") == true)
      #expect(!isInsideTracking)
    }
  }

  @Test func readsInsideTrackingInsideARequiredRegionAreTrackedNotReported() {
    withHandler { reports in
      let counter = Counter()
      let fired = EventLog()
      RequiredTracking.run {
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
        RequiredTracking.run { _ = counter.count }
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
}
