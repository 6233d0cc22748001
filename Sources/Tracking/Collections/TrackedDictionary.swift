/// A dictionary whose values are tracked one by one: changing the value for one key
/// re-runs what read that key, not everything that read the dictionary.
///
/// ```swift
/// @Trackable final class Presence {
///   var statuses: TrackedDictionary<String, Status> = [:]
/// }
///
/// withTracking { _ = presence.statuses["ana"] } onChange: { print("ana's status changed") }
/// presence.statuses["bo"] = .away       // ana's readers hear nothing
/// ```
///
/// Keys keep the order in which they were first inserted (``keys``, iteration), so a
/// view of a dictionary is stable; equality and hashing ignore the order, as for
/// `Dictionary`.
///
/// **What a read depends on.** A value by key (`dictionary[key]`): that key's value
/// only (when absent: the structure, so that inserting it re-runs the reader). ``keys``,
/// ``count``, ``isEmpty``: the structure (which keys, in which order). Reading by
/// position and iterating: the structure and each entry read. ``values``: the
/// structure and every value, as one dependency.
///
/// **What a change notifies, and where**: as for ``TrackedList`` — an edit of one value
/// its readers (and those of ``values``); an insertion its structure's readers; a
/// removal the structure's and the removed value's readers; an equal value
/// (`Equatable` values) no one. In-place mutations of a ``Trackable()`` class's
/// property notify those readers only; a ``StateStore`` compares; a copy anywhere else
/// notifies no one.
///
/// **Bad input.** ``init(uniqueKeysWithValues:)`` and a dictionary literal trap on a
/// duplicate key, as `Dictionary`'s do; ``init(checking:)`` throws
/// ``DuplicateKeyError`` instead, and decoding throws `DecodingError.dataCorrupted`.
/// Setting a value for an absent key inserts it, `nil` removes it.
///
/// Value semantics: copies are independent. `Equatable`, `Hashable`, `Codable` and
/// `Sendable` when keys and values are; `==`, hashing and coding read without tracking.
public struct TrackedDictionary<Key: Hashable, Value>: TrackedCollectionRoot {
  @usableFromInline
  var storage: TrackedElements<TrackedDictionary>

  /// An empty dictionary.
  @inlinable
  public init() {
    storage = TrackedElements()
  }

  /// A dictionary of the given pairs, keeping their order. Traps on a duplicate key;
  /// use ``init(checking:)`` for input from outside the program.
  @inlinable
  public init(uniqueKeysWithValues pairs: some Sequence<(Key, Value)>) {
    switch TrackedElements<TrackedDictionary>.make(pairs) {
    case .elements(let storage): self.storage = storage
    case .duplicate(let duplicate): preconditionFailure("TrackedDictionary: the key \(duplicate) appears twice")
    }
  }

  /// The key path of the value for `key`.
  @inlinable
  public static func _elementKeyPath(_ key: Key) -> AnyKeyPath { \TrackedDictionary[key] }

  // MARK: Reading

  /// The keys, in the order they were inserted. Depends on the structure only.
  @inlinable
  public var keys: [Key] { storage.keys }

  /// The values, in the keys' order. Depends on the structure and on every value.
  @inlinable
  public var values: [Value] { storage.values }

  /// The value for `key`, or `nil`.
  ///
  /// Reading depends on that key's value only (on the structure, when it is absent).
  /// Setting a value replaces it (notifying its readers unless it is equal) or inserts
  /// it at the end; setting `nil` removes it. An in-place edit (`scores["ana"]? += 1`)
  /// mutates the value where it is and notifies its readers.
  @inlinable
  public subscript(key: Key) -> Value? {
    get { storage.value(at: key) }
    set { storage.setValue(newValue, at: key) }
    _modify {
      guard let position = storage.buffer.positions[key] else {
        var value: Value? = nil
        yield &value
        if let value { storage.insert(value, at: key, position: storage.buffer.keys.count) }
        return
      }
      var value: Value? = storage.beginEdit(at: position)
      defer { storage.endEdit(at: position, value: value) }
      yield &value
    }
  }

  /// The position of `key`, if present. Depends on the structure.
  @inlinable
  public func index(forKey key: Key) -> Int? { storage.position(of: key) }

  // MARK: Changing

  /// Sets the value for `key` and returns the old one, or `nil` if it was absent (the
  /// key is then inserted at the end).
  @inlinable @discardableResult
  public mutating func updateValue(_ value: Value, forKey key: Key) -> Value? {
    let old = storage.buffer.positions[key].map { storage.buffer.cells[$0].value! }
    storage.setValue(value, at: key)
    return old
  }

  /// Removes the value for `key` and returns it, or returns `nil`.
  @inlinable @discardableResult
  public mutating func removeValue(forKey key: Key) -> Value? {
    guard let position = storage.buffer.positions[key] else { return nil }
    return storage.remove(at: position).value
  }

  /// Removes every entry.
  @inlinable
  public mutating func removeAll() {
    storage.removeAll { _, _ in true }
  }

  /// Removes the entries for which `shouldBeRemoved` returns `true`.
  @inlinable
  public mutating func removeAll(where shouldBeRemoved: ((key: Key, value: Value)) throws -> Bool) rethrows {
    try storage.removeAll { key, value in try shouldBeRemoved((key, value)) }
  }
}

// MARK: - Collection

extension TrackedDictionary: RandomAccessCollection {
  public typealias Element = (key: Key, value: Value)
  public typealias Index = Int
  public typealias Indices = Range<Int>

  /// Always 0.
  @inlinable
  public var startIndex: Int { 0 }

  /// The number of entries. Depends on the structure.
  @inlinable
  public var endIndex: Int { storage.count }

  /// The entry at `position`. Depends on the structure and on that entry's value.
  @inlinable
  public subscript(position: Int) -> (key: Key, value: Value) { storage.element(at: position) }
}

extension TrackedDictionary: ExpressibleByDictionaryLiteral {
  /// A dictionary of the given pairs, in order. Traps on a duplicate key.
  public init(dictionaryLiteral elements: (Key, Value)...) {
    self.init(uniqueKeysWithValues: elements)
  }
}

// MARK: - Held mutation and struct state

extension TrackedDictionary: _TracksChangesInPlace {
  /// Starts recording what an in-place mutation changes (see `TrackedElements`).
  @inlinable
  public mutating func _$beginHeldMutation() {
    storage.beginHeld()
  }

  /// Stops recording; what changed, or a replacement if the dictionary was replaced.
  @inlinable
  public mutating func _$endHeldMutation() -> _HeldChanges<TrackedDictionary> {
    storage.endHeld()
  }
}

extension TrackedDictionary: TrackedStateValue {
  /// The dictionary's registrar: its identity and the readers of its structure.
  @inlinable
  public var _$stateRegistrar: StateRegistrar { storage.registrar }

  /// Compares with `old`, recording the structure and the values that changed.
  @inlinable
  public func _$reportChanges(from old: TrackedDictionary, into changes: inout StateChanges) -> Bool {
    storage.reportChanges(from: old.storage, into: &changes)
  }

  /// Claims the dictionary for a store.
  @inlinable
  public func _$claim(for owner: StateOwner) -> Bool { storage.claim(for: owner) }

  /// Gives the dictionary (and its values) a new identity if another store holds it.
  public mutating func _$reidentify(for owner: StateOwner) { storage.reidentify(for: owner) }
}

extension TrackedDictionary: Sendable where Key: Sendable, Value: Sendable {}
