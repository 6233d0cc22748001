@available(macOS 15, iOS 18, tvOS 18, watchOS 11, macCatalyst 18, *)
extension AsyncSequence where Self: Sendable, Element: Sendable, Failure == Never {
  /// At most one value every `interval`, and never loses the last one: the first value
  /// passes at once; values arriving within the interval are held, and the latest of
  /// them is delivered when the interval ends (a leading and trailing-edge throttle).
  ///
  /// It differs from swift-async-algorithms' `throttle(for:clock:latest:)`, which is
  /// pull-based: there, a value that arrives inside the interval is emitted only when
  /// *another* value arrives after it, so the final position of a slider drag can wait
  /// indefinitely. UI state wants the trailing edge, which this delivers — hence a
  /// different name.
  ///
  /// ```swift
  /// for await preview in TrackedValues({ image.brightness }).atMostOnce(every: .milliseconds(50), clock: .continuous) {
  ///   render(preview)
  /// }
  /// ```
  ///
  /// The sequence ends when the base sequence ends (after delivering a held value) or
  /// when the consuming task is cancelled. If `clock`'s `sleep` fails for any reason
  /// other than cancellation, the held value is delivered at once rather than dropped.
  /// The timing is the one ``ObservationTiming/throttle(for:clock:)`` gives an
  /// observation.
  ///
  /// Available where `AsyncSequence.Failure` is (macOS 15, iOS 18 and the matching
  /// releases), which the constraint `Failure == Never` needs.
  public func atMostOnce<C: Clock>(every interval: C.Duration, clock: C) -> AsyncStream<Element> {
    let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: .bufferingNewest(1))
    let scheduler = TimerScheduler(clock: clock, interval: interval, kind: .throttle)
    let latest = HeldLatest(output: continuation, scheduler: scheduler)
    let pump = Task {
      for await element in self {
        latest.receive(element)
      }
      latest.baseEnded()
    }
    continuation.onTermination = { _ in
      pump.cancel()
      scheduler.cancel()
    }
    return stream
  }
}

/// The value an ``AsyncSequence/atMostOnce(every:clock:)`` stream holds between
/// deliveries. The timing is the one `observe(timing: .throttle(…))` runs on
/// (`TimerScheduler`): a value is a change, and a delivery is a run.
///
/// Order: a delivery takes the held value and yields it under the lock, so a value
/// received after it cannot be yielded before it (the stream keeps only the newest, so
/// an out-of-order yield would lose the last value).
final class HeldLatest<Element: Sendable>: Sendable {
  private struct State {
    var held: Element?
    /// A delivery is scheduled: later values replace `held` without scheduling another.
    var deliveryScheduled = false
    var baseEnded = false
  }

  private let state = Locked(State())
  private let output: AsyncStream<Element>.Continuation
  private let scheduler: any RunScheduler

  init(output: AsyncStream<Element>.Continuation, scheduler: any RunScheduler) {
    self.output = output
    self.scheduler = scheduler
  }

  func receive(_ element: Element) {
    let first = state.withLock { state -> Bool in
      state.held = element
      defer { state.deliveryScheduled = true }
      return !state.deliveryScheduled
    }
    // Outside the lock: the scheduler may deliver at once, on this thread.
    if first { scheduler.needsRun { self.deliver() } }
  }

  /// The base ended: finish after the held value is delivered, or now if none waits.
  func baseEnded() {
    state.withLock { state in
      state.baseEnded = true
      if !state.deliveryScheduled { output.finish() }
    }
  }

  private func deliver() {
    state.withLock { state in
      state.deliveryScheduled = false
      if let element = state.held {
        state.held = nil
        output.yield(element)
      }
      if state.baseEnded { output.finish() }
    }
  }
}
