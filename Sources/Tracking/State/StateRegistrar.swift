/// The registrar of one ``TrackedState()`` value: its identity, and the place where
/// reads of its fields are recorded. ``TrackedState()`` stores one in each struct and
/// routes the fields' accessors through it; you don't call it yourself.
///
/// **Copies are independent.** A registrar refers to an object created with the value.
/// Copies of the value refer to the same object: that is what makes it the value's
/// identity (see ``StateIdentifiable``), and it is where trackings that read the value's
/// fields wait. But a registrar never notifies anyone, and setting a field only stores
/// it. Notifications come from the ``StateStore`` that holds the value: it compares the
/// state before and after each mutation and notifies the readers of exactly the fields
/// that changed. So mutating a copy (taken out of a store, passed to a function,
/// captured in a closure, kept in an array, on any thread) notifies no one; only a
/// change to the value a store holds, made through that store, does.
///
/// - A value made with an initializer (or decoded) gets a new registrar, and so a new
///   identity, even if it is equal to an existing value.
/// - A value's readers belong to one store: a store handed a copy of another store's
///   value gives its copy a new identity (see ``StateOwner``).
/// - Registrars never affect equality, hashing or coding of the value that holds them.
public struct StateRegistrar: @unchecked Sendable {
  // @unchecked Sendable: `StateObservation` is a `ManagedBuffer`, which the standard
  // library marks non-Sendable; its header (a registrar) is set once and thread-safe,
  // and its owner word is only touched through C atomics.

  /// The value's identity and the observers of its fields.
  @usableFromInline
  private(set) var observation: StateObservation

  /// For each field of an incomparable type (neither `Equatable`, an object, nor a
  /// state value), indexed by field number: which write it saw last, as a number
  /// unique in the process (0, or no entry: none). A store compares the old and the new
  /// value's stamps to tell whether such a field was written in between (see
  /// ``StateChanges``). `nil`, and so free, until such a field is written (an empty
  /// array would cost a retain and a release at every copy of the value, and every
  /// read through a store copies it); a copy shares the array until one of them
  /// writes.
  @usableFromInline
  var stamps: [Int]?

  /// Creates a registrar, and so a new identity.
  public init() {
    observation = StateObservation.makeForState()
  }

  /// A new identity that already belongs to `owner`.
  init(claimedBy owner: StateOwner) {
    observation = StateObservation.makeForState()
    _ = observation.claim(for: owner)
  }

  /// Whether `other` belongs to the same value (a copy of it, possibly mutated).
  @inlinable @inline(__always)
  public func isSame(as other: StateRegistrar) -> Bool {
    observation === other.observation
  }

  /// Records a read of field `id` (named `name`) of a `State` value in the current
  /// tracking scope, if any.
  ///
  /// In a region that requires tracking (see `TrackingDiagnostics`) but outside any
  /// tracking, the read is reported instead, as `\State.name`.
  ///
  /// Inlined up to the one check that a read outside any scope and without interop
  /// pays (as ``TrackingRegistrar/access(_:property:keyPath:)``): the generated getters
  /// call it, also from inside ``StateStore/mutate(_:)``'s body.
  @inlinable @inline(__always)
  public func access<State>(_ state: State.Type, property id: Int, name: StaticString) {
    let scope = CurrentScope.raw
    if _slowPath(CurrentScope.readNeedsRecording(scope)) {
      recordAccess(State.self, property: id, name: name, scope: scope)
    }
  }

  /// The part of ``access(_:property:name:)`` that runs inside a scope or with interop,
  /// given the scope slot as it loaded it.
  @usableFromInline
  func recordAccess<State>(_ state: State.Type, property id: Int, name: StaticString, scope: UnsafeMutableRawPointer?) {
    observation.registrar.recordAccess(observation, property: id, scope: scope, relaying: TrackingInterop.isRelaying) {
      RequiredTracking.reportUntrackedRead(observation, \.self, name: "\(name)", typeName: "\(State.self)")
    }
  }

  /// Records a read of the value observed by `observation` as the root of a store
  /// (see ``StateObservation/rootID``): its readers are notified when the store's root
  /// is replaced. Returns `false`, recording nothing, in a region that requires
  /// tracking but outside any tracking: the store reports the read itself.
  @inlinable @inline(__always)
  static func accessAsRoot(_ observation: Unmanaged<StateObservation>) -> Bool {
    let scope = CurrentScope.raw
    if _slowPath(CurrentScope.readNeedsRecording(scope)) {
      return recordRootAccess(observation, scope: scope)
    }
    return true
  }

  /// The part of ``accessAsRoot(_:)`` that runs inside a scope or with interop, given
  /// the scope slot as it loaded it.
  @usableFromInline
  static func recordRootAccess(_ observation: Unmanaged<StateObservation>, scope: UnsafeMutableRawPointer?) -> Bool {
    var untracked = false
    observation._withUnsafeGuaranteedRef { observation in
      observation.registrar.recordAccess(
        observation, property: StateObservation.rootID, scope: scope, relaying: TrackingInterop.isRelaying
      ) {
        untracked = true
      }
    }
    return !untracked
  }

  /// Notifies the readers of this value as a store's root that it is about to be
  /// replaced.
  @usableFromInline
  func rootWillChange() { observation.notifyWillSet(StateObservation.rootID) }

  /// Notifies the readers of this value as a store's root that it was replaced.
  @usableFromInline
  func rootDidChange() { observation.notifyDidSet(StateObservation.rootID) }

  /// The number of observers installed on this value's fields. For tests.
  @_spi(Testing)
  public var installedObserverCount: Int { observation.registrar.installedObserverCount }
}

// MARK: - Writes

extension StateRegistrar {
  // Called by every generated setter before it stores. A store compares values of
  // comparable types; for the others it needs to know that a write happened, so such
  // a write gives the field a new stamp. The overloads pick by the field's static type.

  /// Notes a write of field `id`, whose type cannot be compared: a new stamp.
  @inlinable @inline(__always)
  public mutating func noteWrite<Value>(of value: Value, property id: Int) {
    stamp(id)
  }

  /// `Equatable` fields are compared by value: nothing to note.
  @inlinable @inline(__always)
  public mutating func noteWrite<Value: Equatable>(of value: Value, property id: Int) {}

  /// Object fields are compared by identity: nothing to note.
  @inlinable @inline(__always)
  public mutating func noteWrite<Value: AnyObject>(of value: Value, property id: Int) {}

  /// `Equatable` object fields are compared with `==`: nothing to note.
  @inlinable @inline(__always)
  public mutating func noteWrite<Value: AnyObject & Equatable>(of value: Value, property id: Int) {}

  /// State fields are compared by identity and then field by field: nothing to note.
  @inlinable @inline(__always)
  public mutating func noteWrite<Value: StateIdentifiable>(of value: Value, property id: Int) {}

  /// State fields are compared by identity, whatever `==` says: nothing to note.
  @inlinable @inline(__always)
  public mutating func noteWrite<Value: StateIdentifiable & Equatable>(of value: Value, property id: Int) {}

  /// Notes a write of field `id`, an `unowned` reference, which is compared by its
  /// stamps only (loading it could trap, its object may be gone): a new stamp.
  @inlinable @inline(__always)
  public mutating func noteWrite(property id: Int) {
    stamp(id)
  }

  /// Gives field `id` a new stamp.
  @usableFromInline
  mutating func stamp(_ id: Int) {
    var table = stamps ?? []
    stamps = nil  // so that `table` is the only reference, and is written in place
    if table.count <= id { table += repeatElement(0, count: id + 1 - table.count) }
    table[id] = StateSerials.next()
    stamps = table
  }

  /// The stamp of field `id` in `stamps` (0: never written).
  @inlinable @inline(__always)
  static func stamp(of id: Int, in stamps: [Int]?) -> Int {
    guard let stamps else { return 0 }
    return id < stamps.count ? stamps[id] : 0
  }
}

// MARK: - Ownership

extension StateRegistrar {
  /// Makes `owner` the store of this value if no store is yet; returns whether the
  /// value belongs to `owner` now.
  public func claim(for owner: StateOwner) -> Bool {
    observation.claim(for: owner)
  }

  /// Gives this value a new identity, owned by `owner`, if it belongs to another store.
  public mutating func reidentify(for owner: StateOwner) {
    if !observation.claim(for: owner) { self = StateRegistrar(claimedBy: owner) }
  }
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
