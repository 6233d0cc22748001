import Tracking

/// Waits for the next change of anything `expression` reads and returns its new value.
///
/// ```swift
/// @Test func loadingFillsTheList() async throws {
///   let model = Model()
///   Task { await model.load() }
///   let items = try await nextChange(of: { model.items })
///   #expect(items.count == 3)
/// }
/// ```
///
/// The tracking is installed before this function first suspends, on the caller's
/// actor, so a change made by work that runs while the caller waits (a task on the
/// same actor, another thread) is never missed. The new value is read right after the
/// change, on the mutating thread.
///
/// - Parameters:
///   - expression: Reads the tracked properties to watch; evaluated once now and
///     once after the change.
///   - label: How failure messages name the expression, such as `"model.items"`.
///   - timeout: How long to wait, measured on `clock`.
///   - clock: The clock that measures the timeout; pass a test clock to control it.
///   - isolation: The caller's actor, where the tracking is installed (filled in for you).
///   - fileID: The caller's file, for the failure's location (filled in for you).
///   - filePath: The caller's file path (filled in for you).
///   - line: The caller's line (filled in for you).
///   - column: The caller's column (filled in for you).
/// - Returns: The value of `expression` just after the change.
/// - Throws: ``TrackingTestError/timedOut(expression:after:location:)`` when nothing
///   changed in time, ``TrackingTestError/nothingTracked(expression:location:)`` when
///   `expression` read no tracked property, or `CancellationError` when the calling
///   task is cancelled.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, macCatalyst 16, *)
public func nextChange<T: Sendable, C: Clock<Duration>>(
  @_inheritActorContext of expression: @escaping @isolated(any) @Sendable () -> T,
  _ label: String? = nil,
  timeout: Duration = .seconds(1),
  clock: C = ContinuousClock(),
  isolation: isolated (any Actor)? = #isolation,
  fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
) async throws -> T {
  let location = TrackingTestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
  let mailbox = ChangeMailbox<T>()
  // The new value is read where the expression may run: synchronously when the change
  // happens on its isolation, else scheduled there; and never recorded by a tracking
  // scope that happens to be active on the mutating thread.
  let isolation = expression.isolation
  let read: @Sendable () -> Void = {
    mailbox.deliver(withoutTracking { callOnItsActor(expression, checked: false) })
  }
  let (_, observer) = track({ callOnItsActor(expression) }) {
    .make(kind: .didSetOnce, willSet: nil, didSet: .plain { Isolation.perform(on: isolation, read) })
  }
  guard let observer else { throw TrackingTestError.nothingTracked(expression: label, location: location) }
  defer { observer.cancel() }
  return try await withThrowingTaskGroup(of: T.self, isolation: isolation) { group in
    group.addTask { try await mailbox.receive() }
    group.addTask {
      try await clock.sleep(for: timeout)
      throw TrackingTestError.timedOut(expression: label, after: timeout, location: location)
    }
    defer { group.cancelAll() }
    guard let first = try await group.next() else { throw CancellationError() }
    return first
  }
}
