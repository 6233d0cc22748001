import IssueReporting
import Testing
import Tracking

/// A thread-safe list of the events that callbacks record, in order.
final class Events: Sendable {
  private let storage = Locked<[String]>([])

  func callAsFunction(_ event: String) {
    storage.withLock { $0.append(event) }
  }

  var all: [String] { storage.withLock { $0 } }

  func clear() { storage.withLock { $0.removeAll() } }
}

/// Sends IssueReporting's reports to Swift Testing, so `withKnownIssue` sees them.
/// (The package's test target does not link `IssueReportingTestSupport`, which would
/// do this by itself.)
struct SwiftTestingReporter: IssueReporter {
  func reportIssue(
    _ message: @autoclosure () -> String?, severity: IssueSeverity,
    fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
  ) {
    Issue.record(
      Comment(rawValue: message() ?? ""),
      sourceLocation: SourceLocation(
        fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column)))
  }

  func expectIssue(
    _ message: @autoclosure () -> String?,
    fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
  ) {}
}

/// Runs `body` with untracked-read reports recorded as Swift Testing issues.
func withTestingIssues(_ body: () -> Void) {
  withIssueReporters([SwiftTestingReporter()], operation: body)
}
