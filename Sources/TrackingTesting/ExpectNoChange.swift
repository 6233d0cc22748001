import Tracking

/// Runs `action` and throws if it changed anything `expression` reads.
///
/// ```swift
/// @Test func renamingKeepsTheTotal() throws {
///   let cart = Cart()
///   try expectNoChange(of: { cart.total }, "cart.total") { cart.name = "Groceries" }
/// }
/// ```
///
/// Only changes made synchronously by `action` (or on other threads while it runs)
/// count; for changes that land later, use the asynchronous variant.
///
/// - Parameters:
///   - expression: Reads the tracked properties that must not change.
///   - label: How the failure message names the expression.
///   - action: The code that must not change them.
///   - fileID: The caller's file, for the failure's location (filled in for you).
///   - filePath: The caller's file path (filled in for you).
///   - line: The caller's line (filled in for you).
///   - column: The caller's column (filled in for you).
/// - Throws: ``TrackingTestError/unexpectedChange(expression:change:location:)`` naming
///   the first property that changed, ``TrackingTestError/nothingTracked(expression:location:)``
///   when `expression` read no tracked property, or what `action` throws.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, macCatalyst 16, *)
public func expectNoChange<T>(
  of expression: () -> T,
  _ label: String? = nil,
  during action: () throws -> Void,
  fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
) throws {
  let location = TrackingTestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
  let watch = try NoChangeWatch(expression, label, location)
  defer { watch.end() }
  try action()
  try watch.check()
}

/// Runs `action`, waits `gracePeriod` on `clock` for changes it set in motion, and
/// throws if anything `expression` reads changed meanwhile.
///
/// With a test clock, advance it by `gracePeriod` (from another task) to end the wait.
///
/// - Throws: As the synchronous variant; also `CancellationError` when the calling
///   task is cancelled while waiting.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, macCatalyst 16, *)
public func expectNoChange<T, C: Clock<Duration>>(
  of expression: () -> T,
  _ label: String? = nil,
  gracePeriod: Duration = .milliseconds(100),
  clock: C = ContinuousClock(),
  isolation: isolated (any Actor)? = #isolation,
  during action: () async throws -> Void,
  fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
) async throws {
  let location = TrackingTestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
  let watch = try NoChangeWatch(expression, label, location)
  defer { watch.end() }
  try await action()
  try watch.check()
  try await clock.sleep(for: gracePeriod)
  try watch.check()
}

/// Counts how many times anything `expression` reads changes while `action` runs.
///
/// Each change is counted once (at its `didSet`); the expression is tracked afresh
/// after each one, so reads that depend on conditions are followed.
///
/// ```swift
/// let count = changeCount(of: { model.items }) { model.addThree() }
/// #expect(count == 3)
/// ```
public func changeCount<T>(
  @_inheritActorContext of expression: @escaping @isolated(any) @Sendable () -> T,
  during action: () throws -> Void
) rethrows -> Int {
  // A continuous tracking run once per change (once per transaction), synchronously,
  // with the expression's isolation; the first run only installs the tracking.
  let runs = Locked(0)
  let token = Reaction.observe(
    options: .didSet, delivery: .immediate, firstRun: .immediate,
    body: .onIsolation(expression.isolation) { _ in
      runs.withLock { $0 += 1 }
      _ = callOnItsActor(expression, checked: false)
    })
  return try withExtendedLifetime(token) {
    let before = runs.withLock { $0 }
    try action()
    return runs.withLock { $0 } - before
  }
}

/// The tracking behind `expectNoChange`: remembers the first change of what the
/// expression read.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, macCatalyst 16, *)
private struct NoChangeWatch {
  private let firstChange = Locked<String?>(nil)
  private let observer: TrackingObserver
  private let label: String?
  private let location: TrackingTestLocation

  init<T>(_ expression: () -> T, _ label: String?, _ location: TrackingTestLocation) throws {
    let firstChange = self.firstChange
    let (_, observer) = track(expression) {
      .make(kind: .willSetOnce, willSet: .event { event in firstChange.withLock { $0 = $0 ?? describe(event) } }, didSet: nil)
    }
    guard let observer else { throw TrackingTestError.nothingTracked(expression: label, location: location) }
    self.observer = observer
    self.label = label
    self.location = location
  }

  func check() throws {
    if let change = firstChange.withLock({ $0 }) {
      throw TrackingTestError.unexpectedChange(expression: label, change: change, location: location)
    }
  }

  func end() { observer.cancel() }
}

/// Names the property of a change for a failure message: `Type.name` where the macro
/// named it, else its key path where the platform can print it (`\Model.count`), else
/// its number in the object's registrar.
private func describe(_ event: TrackingEvent) -> String {
  let type = event.objectType.map { String(describing: $0) } ?? "an object"
  if let name = event.propertyName { return "\(type).\(name)" }
  if let keyPath = event.keyPath, !"\(keyPath)".contains("<") { return "\(keyPath)" }
  return event.propertyID.map { "property #\($0) of \(type)" } ?? "a property of \(type)"
}
