import Testing
import Tracking
import TrackingDiagnostics

@Trackable
final class Article {
  var title = "Hello"
  var views = 0
}

/// The untracked-read handler is process-wide; run these one at a time.
@Suite("Untracked-access diagnostics", .serialized)
struct DiagnosticsTests {
  /// The comments of the issues recorded by `body`, which must record at least one.
  func reportedIssues(_ body: () -> Void) -> [String] {
    let reports = Events()
    withTestingIssues {
      withKnownIssue {
        body()
      } matching: { issue in
        reports(issue.comments.map(\.rawValue).joined())
        return true
      }
    }
    return reports.all
  }

  @Test func anUntrackedReadInARequiredRegionIsReportedNamingTypeAndProperty() {
    let article = Article()
    let reports = reportedIssues {
      let title = withTrackingRequired { article.title }
      #expect(title == "Hello")
    }
    #expect(reports.count == 1)
    #expect(reports.first?.contains("'Article'") == true)
    // The property is named where key paths print their names (Apple platforms);
    // elsewhere the message says which type and gives the key path's description.
    #expect(reports.first?.contains("Article.") == true)
    #expect(reports.first?.contains("read outside of tracking") == true)
  }

  @Test func eachUntrackedReadIsReported() {
    let article = Article()
    let reports = reportedIssues {
      withTrackingRequired {
        _ = article.title
        _ = article.views
      }
    }
    #expect(reports.count == 2)
    #expect(reports.first != reports.last)
  }

  @Test func theIssueIsAttributedToTheRequiredRegion() {
    let article = Article()
    let lines = Events()
    let expectedLine = #line + 3
    withTestingIssues {
      withKnownIssue {
        withTrackingRequired { _ = article.views }
      } matching: { issue in
        lines("\(issue.sourceLocation?.line ?? 0) \(issue.sourceLocation?.fileName ?? "")")
        return true
      }
    }
    #expect(lines.all == ["\(expectedLine) DiagnosticsTests.swift"])
  }

  @Test func readsInsideTrackingAreNotReported() {
    let article = Article()
    let events = Events()
    withTestingIssues {
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
    #expect(events.all == ["title", "views"])
  }

  @Test func readsInWithoutTrackingOrOutsideRegionsAreNotReported() {
    let article = Article()
    withTestingIssues {
      _ = article.title
      withTrackingRequired {
        withoutTracking { _ = article.title }
      }
    }
  }

  @Test func theRegionReturnsAndRethrows() {
    struct Failure: Error {}
    #expect(withTrackingRequired { 42 } == 42)
    #expect(throws: Failure.self) {
      try withTrackingRequired { () throws -> Int in throw Failure() }
    }
  }
}
