
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
      return self[keyPath: keyPath.value]
    }
  }

  /// Calls `body` with the previous and the new value of a property after each change,
  /// synchronously on the mutating thread, until the token is cancelled or released.
  ///
  /// ```swift
  /// let token = settings.onChange(of: \.volume) { old, new in print(old, "→", new) }
  /// ```
  ///
  /// The property is read where it is set (in its `didSet`), so for a model isolated to
  /// an actor the reads happen on that actor, as the model's own setters do.
  public func onChange<Value: Sendable>(
    of keyPath: KeyPath<Self, Value>,
    _ body: @escaping @Sendable (_ oldValue: Value, _ newValue: Value) -> Void
  ) -> ObservationToken {
    // Applied on the thread that mutates the property, which the property's own
    // isolation already restricts; the first read happens here, where it was formed.
    let keyPath = UncheckedSendable(keyPath)
    // The value seen by the previous run; `nil` until the first run has read it.
    let previous = Locked<Value?>(nil)
    return observe { [self] in
      let value = self[keyPath: keyPath.value]
      let old = previous.withLock { stored -> Value? in
        defer { stored = value }
        return stored
      }
      if let old {
        withoutTracking { body(old, value) }
      }
    }
  }
}
