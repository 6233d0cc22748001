
/// Re-runs tracked update functions when what they read changes, in batches.
///
/// This is the pattern UIKit uses for layout over tracked models: a view's update runs
/// inside tracking; a change to anything it read marks the view as needing an update
/// instead of updating at once; the next cycle re-runs every marked view once.
///
/// ```swift
/// let loop = RenderLoop(scheduler: .task)
/// let title = loop.register(name: "title") { titleLabel.text = model.title }
/// let badge = loop.register(name: "badge") { badge.count = model.unread }
/// model.unread += 1     // marks only `badge` dirty; a cycle is scheduled
/// model.unread += 1     // already dirty: nothing more to do
/// // next main-actor turn: one cycle re-runs `badge` once
/// ```
///
/// - ``register(name:_:)`` runs the update once, tracked, before returning.
/// - A change marks dirty only the components whose latest run read the changed
///   property, during its `willSet`, on the mutating thread (any thread may mutate).
/// - ``runCycle()`` re-runs each dirty component once, in registration order, tracked
///   afresh, so reads behind conditions are followed. However many of its properties
///   changed, a component re-runs once per cycle.
/// - Components that become dirty *during* a cycle (an update that writes what another
///   component reads) wait for the next cycle, which is scheduled as usual.
/// - Without a scheduler you drive cycles with ``runCycle()``; with one, the first
///   change after a cycle schedules the next (see ``RenderLoopScheduler``).
/// - Releasing the loop cancels all its pending trackings.
@MainActor
public final class RenderLoop {
  /// Identifies a registered component. Identifiers grow in registration order and
  /// are never reused by a loop.
  public struct ComponentID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The component's registration number in its loop, from 0.
    public let rawValue: Int

    /// Registration order: the component registered first comes first.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `#` followed by the registration number.
    public var description: String { "#\(rawValue)" }
  }

  private struct Component {
    let name: String
    let update: @MainActor () -> Void
    /// Re-runs `update` when what it read changes; tells the dirty set so.
    let reaction: Reaction
    var runCount = 0
  }

  private let dirtySet: DirtySet
  private var components: [Int: Component] = [:]
  private var nextID = 0

  /// The number of component runs so far, registrations included. For tests and tools.
  @_spi(Testing)
  public private(set) var totalRuns = 0

  /// The number of calls to ``runCycle()`` so far (scheduled or manual). For tests and tools.
  @_spi(Testing)
  public private(set) var cycles = 0

  /// Creates a loop. With a `scheduler`, a change schedules a cycle; without one,
  /// cycles run only when you call ``runCycle()``.
  public init(scheduler: RenderLoopScheduler? = nil) {
    dirtySet = DirtySet(scheduler: scheduler)
  }

  deinit {
    for component in components.values { component.reaction.cancel() }
    dirtySet.removeAll()
  }

  /// Registers a component and runs its `update` once now, tracked.
  ///
  /// - Parameters:
  ///   - name: A label for debugging and for ``name(of:)``.
  ///   - update: The function that reads tracked state and updates the component.
  /// - Returns: The component's identifier, for ``unregister(_:)`` and the counts.
  @discardableResult
  public func register(name: String = "", _ update: @escaping @MainActor () -> Void) -> ComponentID {
    let id = nextID
    nextID += 1
    let reaction = Reaction(options: [.willSet, .didSet], needsRun: Self.marker(for: id, in: dirtySet, loop: self))
    components[id] = Component(name: name, update: update, reaction: reaction)
    dirtySet.add(id)
    run(id, always: true)
    return ComponentID(rawValue: id)
  }

  /// Removes a component: it is no longer re-run, and its pending tracking is
  /// cancelled and released. Unregistering an unknown component does nothing.
  public func unregister(_ id: ComponentID) {
    guard let component = components.removeValue(forKey: id.rawValue) else { return }
    component.reaction.cancel()
    dirtySet.remove(id.rawValue)
  }

  /// Re-runs every dirty component once, in registration order, each tracked afresh.
  ///
  /// - Returns: The number of components re-run.
  @discardableResult
  public func runCycle() -> Int {
    cycles += 1
    let dirty = dirtySet.takeDirty().sorted()
    var count = 0
    for id in dirty where components[id] != nil {
      if run(id, always: false) { count += 1 }
    }
    return count
  }

  /// The number of components waiting for the next cycle.
  public var dirtyCount: Int { dirtySet.dirtyCount }

  /// Whether a scheduled cycle has not started yet.
  public var isCycleScheduled: Bool { dirtySet.isCycleScheduled }

  /// The number of registered components.
  public var componentCount: Int { components.count }

  /// Whether `id` waits for the next cycle.
  public func isDirty(_ id: ComponentID) -> Bool { dirtySet.isDirty(id.rawValue) }

  /// How many times `id` has run, its first run at registration included; `0` for an
  /// unregistered component.
  public func runCount(of id: ComponentID) -> Int { components[id.rawValue]?.runCount ?? 0 }

  /// The name `id` was registered with, or `nil` for an unregistered component.
  public func name(of id: ComponentID) -> String? { components[id.rawValue]?.name }

  /// What component `id`'s reaction calls when it needs a run: marks it dirty on the
  /// mutating thread (any thread: it touches only the thread-safe dirty set) and asks
  /// the scheduler for a cycle. Made outside the main actor so that it is not isolated
  /// to it; weak captures only, since the reaction must not keep the loop alive.
  private nonisolated static func marker(
    for id: Int, in dirtySet: DirtySet, loop: RenderLoop
  ) -> @Sendable () -> Void {
    { [weak loop, weak dirtySet] in
      guard let dirtySet, dirtySet.mark(id) else { return }
      dirtySet.scheduler?.schedule { [weak loop] in
        loop?.runCycle()
      }
    }
  }

  /// Runs one component as its reaction's run: tracked, keeping the installed observer
  /// while it reads the same properties. Unless `always`, only if something it read
  /// changed value (a derived value it read may have recomputed to an equal one).
  /// Returns whether it ran.
  @discardableResult
  private func run(_ id: Int, always: Bool) -> Bool {
    guard let component = components[id] else { return false }
    let ran = component.reaction.run(ifNeeded: !always) { component.update() }
    guard ran else { return false }
    components[id]?.runCount += 1
    totalRuns += 1
    return true
  }
}
