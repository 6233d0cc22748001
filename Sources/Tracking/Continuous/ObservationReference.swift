/// The reference through which a continuous observation's observers reach it: strong
/// until the observation is cancelled (by its token, when released), then cleared.
///
/// Not a weak reference: that would give the observation a side table, and every
/// retain and release of it would take the slow path. The cycle it makes (observation
/// → its observers' handlers → this → observation) is broken by `clear()`, which every
/// way of ending an observation goes through (`ContinuousObservation.cancel()`).
final class ObservationReference: @unchecked Sendable {
  // `@unchecked Sendable`: the reference lives in `lock` and is only touched under it.
  private let lock = Locked<ContinuousObservation?>(nil)

  /// The observation, or `nil` once it was cancelled.
  var object: ContinuousObservation? { lock.withLock { $0 } }

  func set(_ observation: ContinuousObservation) { lock.withLock { $0 = observation } }

  /// Lets go of the observation. The value is released after the lock is.
  func clear() {
    let released = lock.withLock { object -> ContinuousObservation? in
      defer { object = nil }
      return object
    }
    _ = released
  }
}
