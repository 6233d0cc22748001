import Tracking

/// Runs `body` as code that must be tracked, such as a view's body or a render
/// function, and reports every read of a tracked property that `body` makes outside
/// any tracking.
///
/// A view body that reads a model outside `withTracking` will not be re-rendered
/// when the model changes; this catches the mistake where it is made:
///
/// ```swift
/// func render() -> String {
///   withTrackingRequired {
///     "\(model.title)"   // reported: read outside tracking
///   }
/// }
///
/// withTracking { render() } onChange: { … }   // not reported: tracked
/// ```
///
/// Each untracked read is reported through IssueReporting's `reportIssue`, attributed
/// to the `withTrackingRequired` call: a test failure when running under XCTest or
/// Swift Testing (link `IssueReportingTestSupport` into the test target), a runtime
/// warning otherwise. The message names the type and the property.
///
/// Reads inside `withTracking` (including one entered within `body`) are tracked and
/// not reported; so are reads in `withoutTracking`. Hand-written tracked properties
/// are checked when they go through a `TrackingRegistrar`.
///
/// In release builds of this module the check is compiled out: `body` is just called
/// and nothing is installed.
@inlinable
public func withTrackingRequired<T>(
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column,
  _ body: () throws -> T
) rethrows -> T {
  #if DEBUG
    return try UntrackedAccessReporter.run(
      fileID: fileID, filePath: filePath, line: line, column: column, body)
  #else
    return try body()
  #endif
}
