/// The reads recorded by one tracking scope: for each registrar read, which of its
/// properties.
///
/// A scope lives on the stack of ``withTracking(_:onChange:)`` and is published to
/// the thread through a thread-local pointer, so registrars find it with one load.
/// The first registrar is held inline: most scopes read one object, and then
/// recording allocates nothing.
@usableFromInline
package struct AccessList {
  @usableFromInline var firstStorage: RegistrarStorage?
  @usableFromInline var firstProperties = PropertySet()
  @usableFromInline var others: [(storage: RegistrarStorage, properties: PropertySet)] = []

  @usableFromInline init() {}

  @inlinable package var isEmpty: Bool { firstStorage == nil }

  /// Whether `other` read exactly the same properties of the same registrars, in the
  /// same order of first reads (a different order counts as different: the caller
  /// then installs afresh, which is correct, only slower).
  package func readsTheSame(as other: AccessList) -> Bool {
    firstStorage === other.firstStorage && firstProperties == other.firstProperties
      && others.count == other.others.count
      && zip(others, other.others).allSatisfy { $0.storage === $1.storage && $0.properties == $1.properties }
  }

  mutating func record(_ storage: RegistrarStorage, _ id: Int) {
    if firstStorage === storage {
      firstProperties.insert(id)
    } else if firstStorage == nil {
      firstStorage = storage
      firstProperties = PropertySet(id)
    } else if let index = others.firstIndex(where: { $0.storage === storage }) {
      others[index].properties.insert(id)
    } else {
      others.append((storage, PropertySet(id)))
    }
  }

  private mutating func record(_ storage: RegistrarStorage, _ properties: PropertySet) {
    if firstStorage === storage {
      firstProperties.formUnion(properties)
    } else if firstStorage == nil {
      firstStorage = storage
      firstProperties = properties
    } else if let index = others.firstIndex(where: { $0.storage === storage }) {
      others[index].properties.formUnion(properties)
    } else {
      others.append((storage, properties))
    }
  }

  /// Adds an inner scope's reads to this one: an outer scope tracks what its nested
  /// scopes read, as Apple's does.
  @usableFromInline
  mutating func merge(_ other: AccessList) {
    other.forEach { record($0, $1) }
  }

  func forEach(_ body: (RegistrarStorage, PropertySet) -> Void) {
    guard let firstStorage else { return }
    body(firstStorage, firstProperties)
    for (storage, properties) in others { body(storage, properties) }
  }

  /// Installs `observer` on every registrar this scope read.
  @usableFromInline
  package func install(_ observer: TrackingObserver) {
    forEach { storage, properties in storage.install(observer, properties: properties) }
  }

  /// Records a read into the scope that is current on this thread. Kept out of line:
  /// the inlined fast path at the call site is only the thread-local load.
  @usableFromInline @inline(never)
  static func record(into scope: UnsafeMutableRawPointer, _ storage: RegistrarStorage, _ id: Int) {
    scope.assumingMemoryBound(to: AccessList.self).pointee.record(storage, id)
  }

  /// Runs `body` with a fresh scope as the thread's current one and returns what it
  /// read. On the way out the reads are also merged into the enclosing scope, if any.
  @inlinable
  package static func collect<T, Failure: Error>(
    _ body: () throws(Failure) -> T
  ) throws(Failure) -> (T, AccessList) {
    var list = AccessList()
    let enclosing = CurrentScope.accessList
    let result = try withUnsafeMutablePointer(to: &list) { (pointer) throws(Failure) -> T in
      defer { enclosing?.pointee.merge(pointer.pointee) }
      return try CurrentScope.with(UnsafeMutableRawPointer(pointer), body)
    }
    return (result, list)
  }

  /// Runs `body` with no current scope, so that its reads are not recorded anywhere.
  static func withoutTracking<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
    try CurrentScope.with(nil, body)
  }
}
