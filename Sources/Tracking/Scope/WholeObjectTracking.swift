extension Trackable {
  /// Makes the current tracking scope depend on *every* tracked property of this
  /// object, with one observer entry — what `objectWillChange` gave an
  /// `ObservableObject`, without reading each property. Outside a tracking scope it does
  /// nothing.
  ///
  /// ```swift
  /// token = observe {
  ///   document.trackEveryProperty()
  ///   saveIndicator.isDirty = true       // runs after any change of `document`
  /// }
  /// ```
  ///
  /// Properties added to the object later (key-path properties numbered on first use)
  /// count too, and so does an in-place edit of an element of a tracked collection
  /// (``TrackedList``, ``TrackedDictionary``) the object holds. The events say which
  /// property (or element) changed.
  public func trackEveryProperty() {
    guard let scope = CurrentScope.accessList, let registrar = TrackingRegistrar.of(self) else { return }
    scope.pointee.recordAll(registrar.storage, type: Self.self)
    WholeValueReads.recordCollections(in: self)
  }
}

extension Sequence where Element: Trackable {
  /// Makes the current tracking scope depend on every tracked property of every
  /// element, without reading any of them: observe "some row changed" over an array of
  /// row models. One observer entry per element; outside a tracking scope it does
  /// nothing.
  ///
  /// ```swift
  /// token = observe {
  ///   rows.trackEveryElement()
  ///   summary.text = "\(rows.filter(\.isDone).count) done"
  /// }
  /// ```
  ///
  /// (The array itself is a value: to follow insertions and removals, read the property
  /// that holds it too.)
  public func trackEveryElement() {
    guard CurrentScope.accessList != nil else { return }
    for element in self { element.trackEveryProperty() }
  }
}

extension TrackingRegistrar {
  /// The registrar of `object`, found among its stored properties (the one the macro
  /// generates, or one a hand-written type keeps), or `nil` if it keeps none.
  ///
  /// Reflection costs about a microsecond; the result is not cached because a
  /// registrar is a reference to the object's own storage.
  static func of(_ object: AnyObject) -> TrackingRegistrar? {
    var mirror: Mirror? = Mirror(reflecting: object)
    while let current = mirror {
      for child in current.children {
        if let registrar = child.value as? TrackingRegistrar { return registrar }
      }
      mirror = current.superclassMirror
    }
    return nil
  }
}
