import Tracking

/// Runs `body` and throws if an observation, derived value or scope started in it is
/// still alive after it.
///
/// ```swift
/// @Test func closingTheScreenEndsItsObservations() throws {
///   let model = Model()
///   try expectNoLeaks {
///     let screen = Screen(model: model)   // observes `model`
///     screen.close()
///   }
/// }
/// ```
///
/// *Alive* means: a continuous observation that is not cancelled (its token, owner or
/// scope still keeps it), a `Derived` value that still exists and is not stopped, a
/// `TrackingScope` that is not cancelled. Each is listed with what it is, where it was
/// started (the `#fileID:#line` of the `observe`, `Derived` or `TrackingScope` call)
/// and what it reads or owns.
///
/// Only what `body` starts counts — on this task and the tasks it starts — so checks
/// in tests that run in parallel do not see each other's work. Work that ends
/// asynchronously (a task's cancellation, an actor's run) must have ended when `body`
/// returns: await it in `body`.
///
/// - Parameters:
///   - fileID: The caller's file, for the failure's location (filled in for you).
///   - filePath: The caller's file path (filled in for you).
///   - line: The caller's line (filled in for you).
///   - column: The caller's column (filled in for you).
///   - body: The code under test.
/// - Returns: What `body` returns.
/// - Throws: ``TrackingTestError/stillAlive(_:location:)``, or what `body` throws.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, macCatalyst 16, *)
@discardableResult
public func expectNoLeaks<T>(
  fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
  _ body: () throws -> T
) throws -> T {
  let recorder = LifetimeRecorder()
  let result = try recorder.record(body)
  try recorder.check(TrackingTestLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  return result
}

/// The asynchronous form of ``expectNoLeaks(fileID:filePath:line:column:_:)``.
///
/// - Parameters:
///   - isolation: The caller's actor (filled in for you).
///   - fileID: The caller's file, for the failure's location (filled in for you).
///   - filePath: The caller's file path (filled in for you).
///   - line: The caller's line (filled in for you).
///   - column: The caller's column (filled in for you).
///   - body: The code under test.
/// - Returns: What `body` returns.
/// - Throws: ``TrackingTestError/stillAlive(_:location:)``, or what `body` throws.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, macCatalyst 16, *)
@discardableResult
public func expectNoLeaks<T>(
  isolation: isolated (any Actor)? = #isolation,
  fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
  _ body: () async throws -> T
) async throws -> T {
  let recorder = LifetimeRecorder()
  let result = try await recorder.record(isolation: isolation, body)
  try recorder.check(TrackingTestLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  return result
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, macCatalyst 16, *)
extension LifetimeRecorder {
  fileprivate func check(_ location: TrackingTestLocation) throws {
    let alive = aliveDescriptions
    if !alive.isEmpty { throw TrackingTestError.stillAlive(alive, location: location) }
  }
}
