import Testing
@_spi(Testing) @testable import Tracking

@Trackable
final class Article {
  var title = "Hello"
  var views = 0
}

@Suite("Untracked-read diagnostics", .serialized)
struct DiagnosticsTests {
  func reports(_ body: () -> Void) -> [UntrackedRead] {
    untrackedReads(of: ["Article"], during: body)
  }

  @Test func anUntrackedReadInARequiredRegionIsReportedNamingTypeAndProperty() {
    let article = Article()
    let reports = reports {
      let title = withTrackingRequired { article.title }
      #expect(title == "Hello")
    }
    #expect(reports.count == 1)
    let text = reports.first?.description ?? ""
    #expect(text.contains("'Article'"))
    #expect(text.contains("read outside of tracking"))
  }

  @Test func eachUntrackedReadIsReported() {
    let article = Article()
    let reports = reports {
      withTrackingRequired {
        _ = article.title
        _ = article.views
      }
    }
    #expect(reports.count == 2)
    #expect(reports.first?.propertyName != reports.last?.propertyName)
  }

  @Test func theReportNamesTheRequiredRegion() {
    let article = Article()
    let expectedLine = #line + 1
    let reports = reports { withTrackingRequired { _ = article.views } }
    #expect(reports.map { $0.location?.line } == [expectedLine])
    #expect(reports.first?.location?.fileID.hasSuffix("DiagnosticsTests.swift") == true)
  }

  @Test func readsInsideTrackingAreNotReported() {
    let article = Article()
    let events = Events()
    let reports = reports {
      withTrackingRequired {
        withTracking { _ = article.title } onChange: { events("title") }
      }
      withTracking {
        withTrackingRequired { _ = article.views }
      } onChange: {
        events("views")
      }
    }
    article.title = "Bye"
    article.views = 1
    #expect(reports.isEmpty)
    #expect(events.all == ["title", "views"])
  }

  @Test func readsInWithoutTrackingOrOutsideRegionsAreNotReported() {
    let article = Article()
    let reports = reports {
      _ = article.title
      withTrackingRequired {
        withoutTracking { _ = article.title }
      }
    }
    #expect(reports.isEmpty)
  }

  @Test func theRegionReturnsAndRethrows() {
    struct Failure: Error {}
    #expect(withTrackingRequired { 42 } == 42)
    #expect(throws: Failure.self) {
      try withTrackingRequired { () throws(Failure) -> Int in throw Failure() }
    }
  }

  @Test func aHandlerCanBeRemoved() {
    let article = Article()
    let seen = Locked(0)
    let id = TrackingDiagnostics.addHandler { read in
      if read.typeName == "Article" { seen.withLock { $0 += 1 } }
    }
    TrackingDiagnostics.removeHandler(id)
    _ = reports { withTrackingRequired { _ = article.views } }
    #expect(seen.withLock { $0 } == 0)
  }
}
