
/// Keeps a callback observation alive. Cancel it, or let it go, to stop the observation.
///
/// Bind an observation to a *lifetime*, not to an initializer: a SwiftUI view's
/// `init` (or any type held in `@State`) may run many times, and each run would start
/// another observation. Store the token in the object whose lifetime the observation
/// should share — a view model, a controller, a `.task` — and the observation ends
/// when that owner goes away:
///
/// ```swift
/// final class Renderer {
///   private var observation: ObservationToken?
///   func start(_ model: Model) {
///     observation = observe { [weak self] in self?.draw(model.shapes) }
///   }
/// }
/// ```
public final class ObservationToken: Sendable, Hashable {
  private let onCancel: @Sendable () -> Void
  private let state = Locked(false)

  init(onCancel: @escaping @Sendable () -> Void) {
    self.onCancel = onCancel
  }

  /// Stops the observation: the callback does not run again and is released.
  /// Calling it more than once does nothing.
  public func cancel() {
    let first = state.withLock { cancelled -> Bool in
      defer { cancelled = true }
      return !cancelled
    }
    if first { onCancel() }
  }

  /// Whether ``cancel()`` was called.
  public var isCancelled: Bool { state.withLock { $0 } }

  deinit { cancel() }

  public static func == (lhs: ObservationToken, rhs: ObservationToken) -> Bool { lhs === rhs }
  public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
