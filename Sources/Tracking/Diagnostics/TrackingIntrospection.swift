/// Looking inside the reactive graph while developing: which changes made an
/// observation run, and a snapshot of what depends on what (``TrackingGraph``).
///
/// ```swift
/// TrackingIntrospection.isEnabled = true          // in a debug build, early
/// let token = observe { render(cart.items, cart.total.value) }
/// cart.items.append(tea)
/// print(token.lastRunCauses)                      // [Cart.items: [] → ["tea"]]
/// print(TrackingGraph.current().mermaid)          // paste into a Markdown file
/// ```
///
/// Off by default, and then free: every hook costs one load of a flag. On, each
/// observation and derived value made from then on is registered (weakly) for
/// ``TrackingGraph/current()``, and keeps the changes that caused its latest run,
/// reading the changed property's value as it changes (old and new where it hears
/// both). Turning it on affects what is made afterwards; turning it off stops the
/// recording at once.
///
/// What it keeps is bounded: a property that changes several times before a run is
/// one cause (its value before the first change and after the latest), and a value is
/// described as `String(describing:)` would, but an array, a set, a dictionary or a
/// tracked collection of more than 16 elements by its first 16 and how many more
/// (`[1, 2, 3, … 997 more]`), and no description past 1 000 characters. So a large model stays usable with introspection on.
public enum TrackingIntrospection {
  /// Whether introspection is on.
  public static var isEnabled: Bool {
    get { Introspection.isOn }
    set { Introspection.setOn(newValue) }
  }
}

/// One change that caused a run, as introspection recorded it: which property of which
/// object, and its value before and after where they were read.
public struct TrackingChange: Sendable, CustomStringConvertible {
  /// A will-set, a did-set, or a deallocation.
  public let kind: TrackingEvent.Kind
  /// The type of the object whose property changed, when known.
  public let objectType: Any.Type?
  /// The property's name, when known.
  public let propertyName: String?
  /// The value before the change, described (within the bound that
  /// ``TrackingIntrospection`` states), when it was read: the observation heard the
  /// will-set. For a property changed several times before the run, the value before
  /// the first change.
  public let oldValue: String?
  /// The value after the change, described (within the same bound), when it was read:
  /// the observation heard the did-set. For a property changed several times before
  /// the run, the value after the latest change.
  public let newValue: String?
  /// The object, to pair a will-set with its did-set.
  let object: ObjectIdentifier?

  /// `Type.property: old → new`, with what is known.
  public var description: String {
    let name = "\(objectType.map { String(describing: $0) } ?? "?").\(propertyName ?? "?")"
    switch (oldValue, newValue) {
    case (let old?, let new?): return "\(name): \(old) → \(new)"
    case (nil, let new?): return "\(name): → \(new)"
    case (let old?, nil): return "\(name): \(old) →"
    case (nil, nil): return kind == .deinit ? "\(name) (deallocated)" : name
    }
  }
}

extension TrackingToken {
  /// The changes that caused the observation's latest run, recorded while
  /// ``TrackingIntrospection`` was on when it was started; empty otherwise (and for
  /// the first run). One per property of an object, in the order they first changed.
  public var lastRunCauses: [TrackingChange] {
    reaction?.state.withLock { $0.causes.last } ?? []
  }
}

extension Derived {
  /// The changes that caused the latest recomputation (see
  /// ``TrackingToken/lastRunCauses``): the properties that changed, for a value that read
  /// them directly, or the derived values it read, named by their `value`.
  public var lastRecomputationCauses: [TrackingChange] {
    node.state.withLock { $0.causes.last }
  }
}
