/// When a continuous observation re-runs after a change: at once (``immediate``), after
/// a delay, once changes pause (``debounce(for:clock:)``), at most once per interval
/// (``throttle(for:clock:)``), or when a scheduler of your own says
/// (``custom(_:)``). MobX's `delay`/`scheduler` options, for
/// ``observe(timing:onError:fileID:line:_:)``.
///
/// Whatever the timing, changes that arrive before the run are one run, and a change is
/// never lost: a run always follows the last change. The run happens on the body's
/// isolation.
public struct ObservationTiming: Sendable {
  let makeScheduler: @Sendable () -> (any RunScheduler)?

  /// Re-runs right after each change, as ``observe(fileID:line:_:)`` does.
  public static let immediate = ObservationTiming { nil }

  /// Re-runs `interval` after the first change since the last run; later changes made
  /// meanwhile are part of that run.
  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, macCatalyst 16, *)
  public static func delay<C: Clock>(_ interval: C.Duration, clock: C) -> ObservationTiming {
    ObservationTiming { TimerScheduler(clock: clock, interval: interval, kind: .delay) }
  }

  /// Re-runs once no change has arrived for `interval` (each change restarts the wait):
  /// for work that should follow a burst of edits, such as a search as you type.
  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, macCatalyst 16, *)
  public static func debounce<C: Clock>(for interval: C.Duration, clock: C) -> ObservationTiming {
    ObservationTiming { TimerScheduler(clock: clock, interval: interval, kind: .debounce) }
  }

  /// Re-runs at most once per `interval`: at once when the last run is at least that
  /// old, else when the interval since it ends (the trailing edge is never dropped).
  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, macCatalyst 16, *)
  public static func throttle<C: Clock>(for interval: C.Duration, clock: C) -> ObservationTiming {
    ObservationTiming { TimerScheduler(clock: clock, interval: interval, kind: .throttle) }
  }

  /// Re-runs when `schedule` calls the closure it is given: once per pending run, from
  /// any thread (the run hops to the body's isolation).
  ///
  /// ```swift
  /// observe(timing: .custom { run in DispatchQueue.main.async(execute: run) }) { … }
  /// ```
  public static func custom(_ schedule: @escaping @Sendable (_ run: @escaping @Sendable () -> Void) -> Void)
    -> ObservationTiming
  {
    ObservationTiming { CustomScheduler(schedule: schedule) }
  }
}

/// Runs an observation's re-runs at its timing's moments. `run` hops to the body's
/// isolation and runs it if a change still asks for it.
protocol RunScheduler: Sendable {
  /// A run is needed (the first change since the last run), on the mutating thread.
  func needsRun(_ run: @escaping @Sendable () -> Void)
  /// One more change before the run.
  func changedAgain()
  /// The observation ended: no run after this.
  func cancel()
}

/// `.custom`: hands the run to the user's scheduler.
struct CustomScheduler: RunScheduler {
  let schedule: @Sendable (@escaping @Sendable () -> Void) -> Void
  func needsRun(_ run: @escaping @Sendable () -> Void) { schedule(run) }
  func changedAgain() {}
  func cancel() {}
}

/// `.delay`, `.debounce` and `.throttle`: one timer task at a time, on `clock`. Also
/// the timing of `AsyncSequence.atMostOnce(every:clock:)` (through `HeldLatest`).
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, macCatalyst 16, *)
final class TimerScheduler<C: Clock>: RunScheduler, @unchecked Sendable {
  // `@unchecked Sendable`: `state` is behind its lock; the rest is immutable.
  enum Kind { case delay, debounce, throttle }

  private struct State {
    var timer: Task<Void, Never>?
    var run: (@Sendable () -> Void)?
    /// When the latest run started (throttle).
    var lastRun: C.Instant?
    var cancelled = false
  }

  private let clock: C
  private let interval: C.Duration
  private let kind: Kind
  private let state = Locked(State())

  init(clock: C, interval: C.Duration, kind: Kind) {
    self.clock = clock
    self.interval = interval
    self.kind = kind
  }

  func needsRun(_ run: @escaping @Sendable () -> Void) {
    let now = clock.now
    let runNow = state.withLock { state -> Bool in
      guard !state.cancelled else { return false }
      state.run = run
      if kind == .throttle, state.lastRun.map({ $0.advanced(by: interval) <= now }) ?? true {
        state.lastRun = now
        state.run = nil
        return true
      }
      let deadline = kind == .throttle ? state.lastRun!.advanced(by: interval) : now.advanced(by: interval)
      startTimer(until: deadline, in: &state)
      return false
    }
    if runNow { run() }
  }

  func changedAgain() {
    guard kind == .debounce else { return }
    let now = clock.now
    state.withLock { state in
      guard !state.cancelled, state.run != nil else { return }
      startTimer(until: now.advanced(by: interval), in: &state)
    }
  }

  func cancel() {
    let timer = state.withLock { state -> Task<Void, Never>? in
      state.cancelled = true
      state.run = nil
      defer { state.timer = nil }
      return state.timer
    }
    timer?.cancel()
  }

  /// Replaces the timer by one that runs at `deadline`. Under the lock.
  private func startTimer(until deadline: C.Instant, in state: inout State) {
    state.timer?.cancel()
    state.timer = Task { [clock, weak self] in
      do {
        try await clock.sleep(until: deadline, tolerance: nil)
      } catch {
        // Cancelled: replaced, or the observation ended. Any other failure of the clock
        // runs now: early, but not lost (a timer left set would hold every later run).
        if Task.isCancelled { return }
      }
      self?.fire(at: deadline)
    }
  }

  private func fire(at deadline: C.Instant) {
    let now = clock.now
    let run = state.withLock { state -> (@Sendable () -> Void)? in
      guard !state.cancelled, !Task.isCancelled else { return nil }
      state.timer = nil
      if kind == .throttle { state.lastRun = Swift.min(deadline, now) }
      defer { state.run = nil }
      return state.run
    }
    run?()
  }
}
