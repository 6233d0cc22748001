/// The timing half of a ``SavePolicy``: given when values are submitted and when the
/// scheduled wake-ups fire, says when to write. Pure (times are passed in, in
/// nanoseconds on one monotonic clock), so every edge case is tested without a clock.
///
/// The writer owns one, under its lock, and keeps at most one wake-up scheduled.
struct SaveSchedule: Sendable {
  /// What the writer does next.
  enum Decision: Equatable, Sendable {
    /// Write the pending value now.
    case writeNow
    /// Schedule a wake-up at this time, then call ``SaveSchedule/woke(at:hasPending:)``.
    case wake(at: UInt64)
    /// Nothing to do now: a wake-up is already scheduled, or the pending value waits
    /// for the next submission or a flush.
    case wait
  }

  let policy: SavePolicy
  /// Throttle: the end of the current window. Debounce: when the current burst settles.
  /// `nil` when no window or burst is open.
  private(set) var deadline: UInt64?
  /// Whether a wake-up is scheduled (at `deadline` or earlier).
  private(set) var isWakeScheduled = false

  init(policy: SavePolicy) {
    self.policy = policy
  }

  /// A value became pending at `now`.
  mutating func submitted(at now: UInt64) -> Decision {
    let interval = policy.nanoseconds
    switch policy.mode {
    case .immediate:
      return .writeNow

    case .throttle:
      if let deadline, now < deadline {
        // Inside an open window: the trailing edge writes it, if there is one.
        return policy.trailing ? scheduleWake() : .wait
      }
      deadline = now &+ interval
      return policy.leading ? .writeNow : scheduleWake()

    case .debounce:
      let inBurst = deadline.map { now < $0 } ?? false
      deadline = now &+ interval
      if !inBurst && policy.leading { return .writeNow }
      return policy.trailing ? scheduleWake() : .wait
    }
  }

  /// The scheduled wake-up fired at `now`; `hasPending` says whether a value waits.
  mutating func woke(at now: UInt64, hasPending: Bool) -> Decision {
    isWakeScheduled = false
    guard let deadline else { return .wait }
    if now < deadline {
      // Early (the clock's slack), or a debounced burst moved on: sleep until it settles.
      return hasPending ? scheduleWake() : .wait
    }
    switch policy.mode {
    case .immediate:
      return hasPending ? .writeNow : .wait
    case .throttle:
      guard hasPending, policy.trailing else {
        self.deadline = nil  // the window closes; a pending value waits for the next change
        return .wait
      }
      self.deadline = now &+ policy.nanoseconds  // the trailing write opens the next window
      return .writeNow
    case .debounce:
      self.deadline = nil  // settled
      return hasPending && policy.trailing ? .writeNow : .wait
    }
  }

  private mutating func scheduleWake() -> Decision {
    guard !isWakeScheduled, let deadline else { return .wait }
    isWakeScheduled = true
    return .wake(at: deadline)
  }
}
