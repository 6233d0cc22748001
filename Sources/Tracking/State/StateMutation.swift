/// How ``TrackedState()`` fields decide whether a write notifies their readers.
///
/// - Setting a field to a value with a *different* ``StateIdentity`` notifies the
///   field's readers, which include everyone who read anything through it.
/// - Setting it to a value with the *same* identity notifies no one: the value is the
///   same value, possibly mutated, and its mutated fields already notified their own
///   readers. For plain `Equatable` fields this means "equal values don't notify".
/// - Mutating a field in place (`state.child.count += 1`, `state.items.append(x)`)
///   notifies the field's readers only if the mutation changed its identity. For
///   fields that have no identity other than their value (plain values), in-place
///   mutation always notifies, before the change, as for a ``Trackable()`` class.
///   When the identity of a state-valued field changes in place (an append, an enum
///   case change), the notification comes just *after* the change.
extension StateRegistrar {
  // Values without a state identity follow the rule of `@Trackable` classes
  // (`TrackingRegistrar.shouldNotify`); these overloads only make that rule visible
  // next to the state-value ones below, so the most specific one is chosen.

  /// Whether setting a field from `oldValue` to `newValue` notifies its readers:
  /// always, for values that are neither `Equatable` nor objects.
  @inlinable @inline(__always)
  public static func shouldNotify<Value>(_ oldValue: Value, _ newValue: Value) -> Bool {
    TrackingRegistrar.shouldNotify(oldValue, newValue)
  }

  /// `Equatable` values notify when they differ.
  @inlinable @inline(__always)
  public static func shouldNotify<Value: Equatable>(_ oldValue: Value, _ newValue: Value) -> Bool {
    TrackingRegistrar.shouldNotify(oldValue, newValue)
  }

  /// Objects notify when they are different objects.
  @inlinable @inline(__always)
  public static func shouldNotify<Value: AnyObject>(_ oldValue: Value, _ newValue: Value) -> Bool {
    TrackingRegistrar.shouldNotify(oldValue, newValue)
  }

  /// `Equatable` objects notify when they differ by `==`.
  @inlinable @inline(__always)
  public static func shouldNotify<Value: AnyObject & Equatable>(_ oldValue: Value, _ newValue: Value) -> Bool {
    TrackingRegistrar.shouldNotify(oldValue, newValue)
  }

  /// State values notify when their identity differs.
  @inlinable @inline(__always)
  public static func shouldNotify<Value: StateIdentifiable>(_ oldValue: Value, _ newValue: Value) -> Bool {
    !oldValue._$identity.isSame(as: newValue._$identity)
  }

  /// State values notify when their identity differs, whatever `==` says.
  @inlinable @inline(__always)
  public static func shouldNotify<Value: StateIdentifiable & Equatable>(
    _ oldValue: Value, _ newValue: Value
  ) -> Bool {
    !oldValue._$identity.isSame(as: newValue._$identity)
  }

  /// Starts an in-place mutation of field `id` holding a plain value: notifies its
  /// readers now. Pass the result to ``didModify(property:_:_:)``.
  @inlinable @inline(__always)
  public func willModify<Value>(property id: Int, _ value: Value) -> StateIdentity? {
    willSet(property: id)
    return nil
  }

  /// Starts an in-place mutation of field `id` holding a state value: remembers its
  /// identity. Pass the result to ``didModify(property:_:_:)``.
  @inlinable @inline(__always)
  public func willModify<Value: StateIdentifiable>(property id: Int, _ value: Value) -> StateIdentity? {
    value._$identity
  }

  /// Ends an in-place mutation of field `id`: for a plain value, completes the
  /// notification; for a state value, notifies if its identity changed.
  @inlinable @inline(__always)
  public func didModify<Value>(property id: Int, _ value: Value, _ before: StateIdentity?) {
    didSet(property: id)
  }

  /// Ends an in-place mutation of a state-valued field `id`.
  @inlinable @inline(__always)
  public func didModify<Value: StateIdentifiable>(property id: Int, _ value: Value, _ before: StateIdentity?) {
    if let before, before.isSame(as: value._$identity) { return }
    willSet(property: id)
    didSet(property: id)
  }
}
