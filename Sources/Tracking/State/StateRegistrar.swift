/// The registrar of one ``TrackedState()`` value: its identity and the observers of
/// its fields. ``TrackedState()`` stores one in each struct and routes the fields'
/// accessors through it; you don't call it yourself.
///
/// A registrar is a reference to shared storage, created with the value. Copies of the
/// value share it, so:
/// - Readers of a field of a value are notified when that field is set on *any* copy
///   of the value, at the time it is set (this is what lets a copy be mutated and
///   written back without notifying anyone twice).
/// - A value made with an initializer (or decoded) gets a new registrar, so a new
///   identity, even if it is equal to an existing value.
///
/// Registrars never affect equality, hashing or coding of the value that holds them.
public struct StateRegistrar: Sendable {
  let observation: StateObservation

  /// Creates a registrar, and so a new identity.
  public init() {
    observation = StateObservation()
  }

  /// The identity of the value that holds this registrar.
  public var identity: StateIdentity { StateIdentity(.object(observation)) }

  /// Records a read of field `id` (named `name`) of a `State` value in the current
  /// tracking scope, if any.
  ///
  /// In a region that requires tracking (see `TrackingDiagnostics`) but outside any
  /// tracking, the read is reported instead, as `\State.name`.
  public func access<State>(_ state: State.Type, property id: Int, name: StaticString) {
    if _slowPath(CurrentScope.isRequiredRegion) {
      RequiredTracking.reportUntrackedRead(observation, \.self, name: "\(name)", typeName: "\(State.self)")
      return
    }
    observation.registrar.access(observation, property: id, keyPath: \.self)
  }

  /// Notifies the readers of field `id` that it is about to change.
  public func willSet(property id: Int) {
    observation.registrar.willSet(observation, property: id, keyPath: \.self)
  }

  /// Notifies the readers of field `id` that it has changed.
  ///
  /// During ``StateStore/mutate(_:)`` the notification is held until the store holds
  /// the new state.
  public func didSet(property id: Int) {
    if let pending = PendingDidSets.current {
      pending.append(observation, id)
    } else {
      observation.registrar.didSet(observation, property: id, keyPath: \.self)
    }
  }

  /// Brackets `mutation` with ``willSet(property:)`` and ``didSet(property:)``.
  public func withMutation<Result>(property id: Int, _ mutation: () throws -> Result) rethrows -> Result {
    willSet(property: id)
    defer { didSet(property: id) }
    return try mutation()
  }

  /// The number of observers installed on this value's fields. For tests.
  public var installedObserverCount: Int { observation.registrar.installedObserverCount }
}

extension StateRegistrar: Hashable, Codable {
  /// All registrars are equal, so a registrar never affects its value's equality.
  public static func == (lhs: Self, rhs: Self) -> Bool { true }
  /// A registrar contributes nothing to its value's hash.
  public func hash(into hasher: inout Hasher) {}
  /// A registrar decodes as a new one: a decoded value is a new value.
  public init(from decoder: any Decoder) throws { self.init() }
  /// A registrar encodes nothing.
  public func encode(to encoder: any Encoder) throws {}
}

/// The shared part of a ``StateRegistrar``: an object (so it has an identity) owning
/// the observers of one state value's fields. Field changes are reported with this
/// object as `TrackedChange.subject` and no meaningful key path.
final class StateObservation: Trackable, @unchecked Sendable {
  let registrar = TrackingRegistrar()
}
