/// Where reports of untracked reads go.
///
/// With no handler registered, each distinct report (type, property, region) is
/// printed once to standard error as a warning. Register a handler to send reports
/// elsewhere (a log, a breakpoint, a test failure: a handler in a test target can
/// call Swift Testing's `Issue.record`); while any handler is registered, nothing is
/// printed.
///
/// Handlers are process-wide and called synchronously on the thread that made the
/// read, while the region's code runs; keep them short, and don't read tracked
/// properties in them.
public enum TrackingDiagnostics {
  /// Receives untracked reads.
  public typealias Handler = @Sendable (UntrackedRead) -> Void

  /// Identifies a registered handler, for ``removeHandler(_:)``.
  public struct HandlerID: Hashable, Sendable {
    let rawValue: Int
  }

  private struct Registry {
    var next = 0
    var handlers: [Int: Handler] = [:]
    var printed: Set<UntrackedRead> = []
  }

  private static let registry = Locked(Registry())

  /// Registers `handler`. Registration is additive: independent clients (a logger and
  /// a test helper, say) never displace each other.
  @discardableResult
  public static func addHandler(_ handler: @escaping Handler) -> HandlerID {
    registry.withLock { registry in
      defer { registry.next += 1 }
      registry.handlers[registry.next] = handler
      return HandlerID(rawValue: registry.next)
    }
  }

  /// Removes a handler; removing one twice does nothing.
  public static func removeHandler(_ id: HandlerID) {
    registry.withLock { _ = $0.handlers.removeValue(forKey: id.rawValue) }
  }

  /// Sends one report to every handler, or prints it when there is none. Handlers run
  /// after the registry's lock is released.
  static func report(_ read: UntrackedRead) {
    let (handlers, print) = registry.withLock { registry -> ([Handler], Bool) in
      if registry.handlers.isEmpty { return ([], registry.printed.insert(read).inserted) }
      return (Array(registry.handlers.values), false)
    }
    for handler in handlers { handler(read) }
    if print { writeToStandardError("warning: \(read)\n") }
  }
}
