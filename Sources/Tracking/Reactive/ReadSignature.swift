/// What a node's run read, kept until the next run to tell whether that one read the
/// same things (then the installed observer is kept; see ``ReactiveNode/adopt(_:end:)``).
///
/// Objects are identified by address (the owner forgets the signature when one of them
/// is deallocated), so the signature keeps nothing alive.
package struct ReadSignature {
  struct Entry {
    let object: ObjectIdentifier
    /// The object's type, for naming its properties (introspection).
    let type: any Trackable.Type
    let properties: PropertySet

    /// Whether `storage`'s object, read for `properties`, is this entry's.
    @inline(__always)
    func matches(_ storage: RegistrarStorage, _ properties: PropertySet) -> Bool {
      object == ObjectIdentifier(storage) && self.properties == properties
    }
  }

  let entries: [Entry]

  /// ``matches(_:)`` for an optional signature (`nil` matches nothing), borrowed in
  /// place rather than copied. Inlined, as is ``matches(_:)``: called out of line, the
  /// scope it reads was copied for the call (see ``ReactiveNode/adopt(_:end:)``).
  @inline(__always)
  static func matches(_ signature: borrowing ReadSignature?, _ reads: borrowing AccessList) -> Bool {
    switch signature {
    case .some(let signature): signature.matches(reads)
    case .none: false
    }
  }

  /// Whether `reads` read exactly what this signature describes, in the same order of
  /// first reads (a different order counts as different: the caller then installs
  /// afresh, which is correct, only slower). Allocates nothing.
  @inline(__always)
  package func matches(_ reads: borrowing AccessList) -> Bool {
    guard reads.firstStorage != nil else { return entries.isEmpty }
    guard entries.count == (reads.others?.entries.count ?? 0) + 1,
      entries[0].matches(reads.firstStorage.unsafelyUnwrapped, reads.firstProperties)
    else { return false }
    var index = 1
    while index < entries.count {
      let other = reads.others.unsafelyUnwrapped.entries[index - 1]
      guard entries[index].matches(other.storage, other.properties) else { return false }
      index += 1
    }
    return true
  }

  /// The properties read, by object type and property name.
  var dependencies: [TrackingDependency] {
    entries.flatMap { TrackingDependency.all(of: $0.type, $0.properties) }
  }

  /// The objects read, by address, with their types and properties (introspection).
  var objects: [(object: ObjectIdentifier, type: any Trackable.Type, properties: PropertySet)] {
    entries.map { ($0.object, $0.type, $0.properties) }
  }
}
