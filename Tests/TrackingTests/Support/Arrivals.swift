import Foundation

/// Values that callbacks hand to a test, which awaits a given number of them: the test
/// resumes when they have arrived (no polling, no sleeping). A test that waits for
/// more than ever arrive is stopped by its suite's time limit.
final class Arrivals<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var values: [Value] = []
  private var waiter: (count: Int, continuation: CheckedContinuation<[Value], Never>)?

  func add(_ value: Value) {
    let ready = lock.withLock { () -> (CheckedContinuation<[Value], Never>, [Value])? in
      values.append(value)
      guard let waiter, values.count >= waiter.count else { return nil }
      self.waiter = nil
      return (waiter.continuation, values)
    }
    ready?.0.resume(returning: ready!.1)
  }

  /// Returns once `count` values have arrived: all of those received so far.
  func first(_ count: Int) async -> [Value] {
    await withCheckedContinuation { continuation in
      let ready = lock.withLock { () -> [Value]? in
        if values.count >= count { return values }
        waiter = (count, continuation)
        return nil
      }
      if let ready { continuation.resume(returning: ready) }
    }
  }

  /// What has arrived so far.
  var received: [Value] { lock.withLock { values } }
}

/// Calls `onDeinit` when it is released: captured by a callback, it tells a test that
/// the callback was released, so that it can never run again.
final class ReleaseSignal: Sendable {
  private let onDeinit: @Sendable () -> Void
  init(_ onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
  deinit { onDeinit() }
}
