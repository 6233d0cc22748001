/// The runtime side of untracked-read diagnostics: a thread can be marked as running
/// code that must be tracked (a view body, a render function), and a tracked property
/// read there while no tracking scope is active is reported.
///
/// The mark is ``CurrentScope/requiredMarker`` in the thread's scope slot, so reads
/// outside any marked region pay nothing and reads inside a real tracking scope pay one
/// comparison. Reports go to the handlers of ``TrackingDiagnostics``.
@usableFromInline
package enum RequiredTracking {
  /// Where the innermost active required region was entered, for the report.
  @TaskLocal static var region: UntrackedRead.Location?

  /// Runs `body` with the thread marked as requiring tracking, unless a tracking scope
  /// is already active (then reads are tracked and there is nothing to report).
  @usableFromInline
  package static func run<T, Failure: Error>(
    at location: UntrackedRead.Location?, _ body: () throws(Failure) -> T
  ) throws(Failure) -> T {
    guard CurrentScope.raw == nil else { return try body() }
    let result: Result<T, Failure> = $region.withValue(location) {
      CurrentScope.with(CurrentScope.requiredMarker) {
        do throws(Failure) { return .success(try body()) } catch { return .failure(error) }
      }
    }
    return try result.get()
  }

  /// Reports a read of `keyPath` (the property called `name` of the type called
  /// `typeName`, where the caller knows them better than the key path does).
  @usableFromInline @inline(never)
  package static func reportUntrackedRead<Subject, Member>(
    _ subject: Subject, _ keyPath: KeyPath<Subject, Member>, name: String? = nil, typeName: String? = nil
  ) {
    reportUntrackedRead(
      typeName: typeName ?? String(describing: Subject.self), propertyName: name ?? String(describing: keyPath))
  }

  /// Reports a read of the property called `propertyName` of the type called
  /// `typeName`.
  static func reportUntrackedRead(typeName: String, propertyName: String) {
    TrackingDiagnostics.report(UntrackedRead(typeName: typeName, propertyName: propertyName, location: region))
  }
}
