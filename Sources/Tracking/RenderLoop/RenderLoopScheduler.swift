/// Decides when a ``RenderLoop`` runs its next cycle after a component became dirty.
///
/// The loop asks its scheduler once per burst of changes: the first component that
/// becomes dirty while no cycle is pending calls ``schedule(_:)`` with the cycle to run;
/// later changes only add to the dirty set until that cycle has started. A scheduler
/// may run the cycle whenever it likes (a main-actor task, a display link, a test that
/// collects cycles and runs them by hand), but must run it on the main actor.
///
/// ```swift
/// let loop = RenderLoop(scheduler: .task)        // one cycle per main-actor turn
/// let manual = RenderLoop()                       // no scheduler: call runCycle() yourself
/// ```
public struct RenderLoopScheduler: Sendable {
  private let body: @Sendable (@escaping @MainActor @Sendable () -> Void) -> Void

  /// A scheduler that hands each cycle to `body`, which must arrange for it to run on
  /// the main actor. `body` is called on the thread that made the change, during the
  /// changed property's `willSet`, so it should only enqueue the cycle, not run it.
  public init(_ body: @escaping @Sendable (_ cycle: @escaping @MainActor @Sendable () -> Void) -> Void) {
    self.body = body
  }

  /// Asks for `cycle` to run on the main actor.
  public func schedule(_ cycle: @escaping @MainActor @Sendable () -> Void) {
    body(cycle)
  }

  /// Runs each cycle in a new main-actor task: all the changes made before the main
  /// actor is free again land in one cycle.
  public static var task: RenderLoopScheduler {
    RenderLoopScheduler { cycle in
      Task { @MainActor in cycle() }
    }
  }
}
