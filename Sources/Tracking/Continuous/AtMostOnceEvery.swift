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
  ///
  /// Available where `AsyncSequence.Failure` is (macOS 15, iOS 18 and the matching
  /// releases), which the constraint `Failure == Never` needs.
  public func atMostOnce<C: Clock>(every interval: C.Duration, clock: C) -> AsyncStream<Element> {
    let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: .bufferingNewest(1))
    let gate = ThrottleGate<Element, C>(interval: interval, clock: clock, output: continuation)
    let pump = Task {
      for await element in self {
        await gate.receive(element)
      }
      await gate.finish()
    }
    continuation.onTermination = { _ in
      pump.cancel()
      Task { await gate.cancel() }
    }
    return stream
  }
}

/// The state of one ``AsyncSequence/atMostOnce(every:clock:)`` stream: when it last emitted, the value it holds, and
/// the timer that will deliver it.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, macCatalyst 16, *)
actor ThrottleGate<Element: Sendable, C: Clock> {
  private let interval: C.Duration
  private let clock: C
  private let output: AsyncStream<Element>.Continuation
  private var lastEmission: C.Instant?
  private var held: Element?
  private var timer: Task<Void, Never>?
  private var finishing = false

  init(interval: C.Duration, clock: C, output: AsyncStream<Element>.Continuation) {
    self.interval = interval
    self.clock = clock
    self.output = output
  }

  func receive(_ element: Element) {
    let now = clock.now
    if timer == nil, lastEmission.map({ $0.advanced(by: interval) <= now }) ?? true {
      emit(element, at: now)
      return
    }
    held = element
    guard timer == nil, let lastEmission else { return }
    let deadline = lastEmission.advanced(by: interval)
    timer = Task { [clock] in
      do {
        try await clock.sleep(until: deadline, tolerance: nil)
      } catch {
        // Cancelled: the stream went away (`cancel()`), nothing to deliver. Any other
        // failure of the clock delivers the held value now: early, but not lost, and the
        // gate keeps working (a timer left set would hold every later value forever).
        if Task.isCancelled { return }
      }
      self.timerFired()
    }
  }

  private func timerFired() {
    timer = nil
    if let element = held {
      held = nil
      emit(element, at: clock.now)
    }
    if finishing { output.finish() }
  }

  private func emit(_ element: Element, at instant: C.Instant) {
    lastEmission = instant
    output.yield(element)
  }

  /// The base ended: deliver the held value when its interval ends, then finish.
  func finish() {
    finishing = true
    if timer == nil { output.finish() }
  }

  func cancel() {
    timer?.cancel()
    timer = nil
    held = nil
  }
}
