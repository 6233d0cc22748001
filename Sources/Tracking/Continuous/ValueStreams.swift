
extension Trackable where Self: Sendable {
  /// The values of one property, as a ``TrackedValues`` sequence (like Combine's
  /// `$property`): the current value first, then one value per transaction that
  /// changed it.
  ///
  /// The property is read on the caller's actor, so a main-actor model can be
  /// streamed from main-actor code.
  ///
  /// ```swift
  /// for await brightness in image.values(of: \.brightness) { apply(brightness) }
  /// ```
  public func values<Value: Sendable>(
    of keyPath: KeyPath<Self, Value>,
    isolation: isolated (any Actor)? = #isolation
  ) -> TrackedValues<Value, Never> {
    // Key paths to actor-isolated properties are not Sendable; this one is only ever
    // applied by the closure below, which is isolated to the caller's actor, where
    // the key path was formed.
    let keyPath = UncheckedSendable(keyPath)
    return TrackedValues { [self] in
      _ = isolation  // capturing the isolated parameter isolates the closure to it
      let value = self[keyPath: keyPath.value]
      WholeValueReads.record(value)  // an element edit of a tracked collection counts
      return value
    }
  }

  /// Calls `body` with the previous and the new value of a property after each change,
  /// until the token is cancelled or released.
  ///
  /// ```swift
  /// token = settings.onChange(of: \.volume) { old, new in volumeLabel.text = "\(old) → \(new)" }
  /// ```
  ///
  /// `body` is isolated to the caller's actor. It runs synchronously in the property's
  /// `didSet` when the change happens there (or `body` is nonisolated), and on its actor
  /// as soon as it is free otherwise; then `old` is the value the previous call saw,
  /// so changes made in between are folded into one call. The property is read where
  /// the change is reported.
  public func onChange<Value: Sendable>(
    of keyPath: KeyPath<Self, Value>,
    @_inheritActorContext _ body: @escaping @isolated(any) @Sendable (_ oldValue: Value, _ newValue: Value) -> Void
  ) -> TrackingToken {
    // Key paths to actor-isolated properties are not Sendable; this one is only applied
    // where `body` runs (its isolation), the property's own isolation.
    let keyPath = UncheckedSendable(keyPath)
    return Reaction.watch(on: body.isolation, { [self] in self[keyPath: keyPath.value] }, site: nil) { old, new in
      guard let old else { return }
      // On `body`'s isolation (the observation only runs this there): call it directly.
      typealias Plain = @Sendable (Value, Value) -> Void
      unsafeBitCast(body, to: Plain.self)(old, new)
    }
  }
}

/// A mutable cell, for state that one observation's runs share.
final class Box<Value> {
  var value: Value
  init(_ value: Value) { self.value = value }
}
