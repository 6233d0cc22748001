// Equality, hashing, coding, sendability and description of the tracked collections.
// None of them tracks: they read the buffer directly, as `==` and coding of
// ``TrackedState()`` values do, and the collection's identity (its registrars) never
// takes part.

// MARK: - Errors

/// Two elements of a ``TrackedList`` given to ``TrackedList/init(checking:)`` have the
/// same ID. Nothing is built; the input is untouched.
public struct DuplicateIDError<ID: Hashable & Sendable>: Error, CustomStringConvertible {
  /// The ID that appears more than once.
  public let id: ID
  /// An error about `id`.
  public init(id: ID) { self.id = id }
  /// Says which ID repeats.
  public var description: String { "two elements have the ID \(id)" }
}

/// A key appears twice in the pairs given to ``TrackedDictionary/init(checking:)``.
/// Nothing is built; the input is untouched.
public struct DuplicateKeyError<Key: Hashable & Sendable>: Error, CustomStringConvertible {
  /// The key that appears more than once.
  public let key: Key
  /// An error about `key`.
  public init(key: Key) { self.key = key }
  /// Says which key repeats.
  public var description: String { "the key \(key) appears twice" }
}

extension TrackedList where Element.ID: Sendable {
  /// A list of `elements`, in order, or a ``DuplicateIDError`` if two have the same ID:
  /// the initializer for input from outside the program.
  public init(checking elements: some Sequence<Element>) throws(DuplicateIDError<Element.ID>) {
    switch TrackedElements<TrackedList>.make(elements.lazy.map { ($0.id, $0) }) {
    case .elements(let storage): self.storage = storage
    case .duplicate(let duplicate): throw DuplicateIDError(id: duplicate)
    }
  }
}

extension TrackedDictionary where Key: Sendable {
  /// A dictionary of `pairs`, in order, or a ``DuplicateKeyError`` if a key repeats:
  /// the initializer for input from outside the program.
  public init(checking pairs: some Sequence<(Key, Value)>) throws(DuplicateKeyError<Key>) {
    switch TrackedElements<TrackedDictionary>.make(pairs) {
    case .elements(let storage): self.storage = storage
    case .duplicate(let duplicate): throw DuplicateKeyError(key: duplicate)
    }
  }
}

// MARK: - Untracked access to the buffer

extension TrackedElements {
  /// The values in order, read without tracking.
  var untrackedValues: [Value] { buffer.cells.map { $0.value! } }
}

// MARK: - Equatable and Hashable

extension TrackedList: Equatable where Element: Equatable {
  /// The same elements in the same order.
  public static func == (lhs: TrackedList, rhs: TrackedList) -> Bool {
    lhs.storage.buffer === rhs.storage.buffer || lhs.storage.untrackedValues == rhs.storage.untrackedValues
  }
}

extension TrackedList: Hashable where Element: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(storage.untrackedValues)
  }
}

extension TrackedDictionary: Equatable where Value: Equatable {
  /// The same keys with the same values, in any order (as for `Dictionary`).
  public static func == (lhs: TrackedDictionary, rhs: TrackedDictionary) -> Bool {
    if lhs.storage.buffer === rhs.storage.buffer { return true }
    guard lhs.storage.buffer.keys.count == rhs.storage.buffer.keys.count else { return false }
    for cell in lhs.storage.buffer.cells {
      guard let position = rhs.storage.buffer.positions[cell.key],
        rhs.storage.buffer.cells[position].value! == cell.value!
      else { return false }
    }
    return true
  }
}

extension TrackedDictionary: Hashable where Value: Hashable {
  /// Independent of the order, as `Dictionary`'s.
  public func hash(into hasher: inout Hasher) {
    var combined = 0
    for cell in storage.buffer.cells {
      var entry = Hasher()
      entry.combine(cell.key)
      entry.combine(cell.value!)
      combined ^= entry.finalize()
    }
    hasher.combine(storage.buffer.keys.count)
    hasher.combine(combined)
  }
}

// MARK: - Codable

extension TrackedList: Encodable where Element: Encodable {
  /// Encodes the elements as an array, in order.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(storage.untrackedValues)
  }
}

extension TrackedList: Decodable where Element: Decodable {
  /// Decodes an array of elements; a duplicate ID is `DecodingError.dataCorrupted`.
  public init(from decoder: any Decoder) throws {
    let elements = try decoder.singleValueContainer().decode([Element].self)
    switch TrackedElements<TrackedList>.make(elements.lazy.map { ($0.id, $0) }) {
    case .elements(let storage): self.storage = storage
    case .duplicate(let duplicate):
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: "Two elements have the ID \(duplicate)."))
    }
  }
}

extension TrackedDictionary: Encodable where Key: Encodable, Value: Encodable {
  /// Encodes the entries as an array alternating keys and values, in order (the form
  /// `Dictionary` uses for keys other than strings and integers).
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.unkeyedContainer()
    for cell in storage.buffer.cells {
      try container.encode(cell.key)
      try container.encode(cell.value!)
    }
  }
}

extension TrackedDictionary: Decodable where Key: Decodable, Value: Decodable {
  /// Decodes keys and values alternating; a duplicate key or a key without a value is
  /// `DecodingError.dataCorrupted`.
  public init(from decoder: any Decoder) throws {
    var container = try decoder.unkeyedContainer()
    var pairs: [(Key, Value)] = []
    while !container.isAtEnd {
      let key = try container.decode(Key.self)
      guard !container.isAtEnd else {
        throw DecodingError.dataCorrupted(
          .init(codingPath: container.codingPath, debugDescription: "The key \(key) has no value."))
      }
      pairs.append((key, try container.decode(Value.self)))
    }
    switch TrackedElements<TrackedDictionary>.make(pairs) {
    case .elements(let storage): self.storage = storage
    case .duplicate(let duplicate):
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: "The key \(duplicate) appears twice."))
    }
  }
}

// MARK: - Description

extension TrackedList: CustomStringConvertible {
  /// The elements, as an array prints them (read without tracking).
  public var description: String { "TrackedList(\(storage.untrackedValues))" }
}

extension TrackedDictionary: CustomStringConvertible {
  /// The entries in order (read without tracking).
  public var description: String {
    let entries = storage.buffer.cells.map(describeEntry)
    return "TrackedDictionary([\(entries.joined(separator: ", "))])"
  }
}

/// A tracked dictionary's entry, as its description shows it.
private func describeEntry<Root>(_ cell: ElementCell<Root>) -> String { "\(cell.key): \(cell.value!)" }

/// Past the bound, introspection shows a tracked collection's first elements as its
/// description does (see ``BoundedDescription``).
extension TrackedList: ListsEveryElement {
  func boundedDescription() -> String? {
    BoundedDescription.listing(storage.buffer.cells, open: "TrackedList([", close: "])") {
      String(reflecting: $0.value!)
    }
  }
}

extension TrackedDictionary: ListsEveryElement {
  func boundedDescription() -> String? {
    BoundedDescription.listing(storage.buffer.cells, open: "TrackedDictionary([", close: "])", element: describeEntry)
  }
}
