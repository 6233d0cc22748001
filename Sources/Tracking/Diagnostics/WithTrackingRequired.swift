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
/// Each untracked read is sent to ``TrackingDiagnostics`` as an ``UntrackedRead``
/// naming the type, the property and this call's location: a warning on standard
/// error by default, or whatever a registered handler does with it (a test failure,
/// say).
///
/// Reads inside `withTracking` (including one entered within `body`) are tracked and
/// not reported; so are reads in `withoutTracking`. Hand-written tracked properties
/// are checked when they go through a `TrackingRegistrar`.
///
/// In release builds of this module the check is compiled out: `body` is just called.
@inlinable
public func withTrackingRequired<T, Failure: Error>(
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column,
  _ body: () throws(Failure) -> T
) throws(Failure) -> T {
  #if DEBUG
    return try RequiredTracking.run(
      at: UntrackedRead.Location(
        fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column)),
      body)
  #else
    return try body()
  #endif
}
