// Reading a tracked collection *as a whole*. A property read (`model.rows`) depends on
// the property only — replacing the list — because the reader goes on to read what it
// needs through the value (`ids`, one row). The APIs that observe a property's value
// without reading through it — `values(of:)`, `onChange(of:_:)`, `publisher(for:)`,
// `trackEveryProperty()` and persistence — also record a read of every element and of
// the structure here, so that an in-place edit of one element reaches them as it
// reaches a reader of `elements`.

/// A value whose insides are tracked separately from the property that holds it: a
/// tracked collection. Recording a read of the whole records its structure and every
/// element, as one dependency.
package protocol ReadableAsAWhole {
  /// Records, in the current tracking scope, a read of the structure and every element.
  func recordReadOfTheWhole()
}

extension TrackedElements {
  /// Records a read of the structure and of every value (properties 0 and 1).
  func recordReadOfTheWhole() {
    readStructure()
    registrar.access(Root.self, property: Self.contents, name: "values")
  }
}

extension TrackedList: ReadableAsAWhole {
  package func recordReadOfTheWhole() { storage.recordReadOfTheWhole() }
}

extension TrackedDictionary: ReadableAsAWhole {
  package func recordReadOfTheWhole() { storage.recordReadOfTheWhole() }
}

/// Where the observers of a whole value record what lies inside it.
package enum WholeValueReads {
  /// Records a read of the whole of `value` if it is a tracked collection (see
  /// ``ReadableAsAWhole``); nothing otherwise, and nothing outside a tracking scope.
  @inline(__always)
  package static func record<Value>(_ value: Value) {
    guard CurrentScope.raw != nil else { return }
    recordSlowly(value)
  }

  private static func recordSlowly(_ value: Any) {
    (value as? any ReadableAsAWhole)?.recordReadOfTheWhole()
  }

  /// Records a read of the whole of each tracked collection stored in `object`, in its
  /// class and its superclasses (by reflection, about a microsecond).
  package static func recordCollections(in object: AnyObject) {
    guard CurrentScope.raw != nil else { return }
    var mirror: Mirror? = Mirror(reflecting: object)
    while let current = mirror {
      for child in current.children { recordSlowly(child.value) }
      mirror = current.superclassMirror
    }
  }
}
