import Foundation

/// Encodes chosen top-level properties of a model, each to its own JSON fragment,
/// through the model's own `encode(to:)` — so a change of one property costs the
/// encoding of that property, not of the whole model.
///
/// The model's `encode(to:)` runs against a stand-in encoder whose keyed container
/// hands each *chosen* value to `JSONEncoder` (sorted keys: equal values, equal bytes)
/// and skips the others without encoding them. It also notes every key the model
/// visits — a `nil` optional included — so that a property that disappears is seen.
///
/// A model whose encoding is not a flat keyed container at the top (a single value, a
/// list, a nested container or a superclass encoder under a top-level key) can't be
/// split this way: ``encode(_:keys:)`` returns `nil`, and the caller encodes the model
/// whole. (Per-element encoding of collections plugs in here: a chosen value that is a
/// collection with changed elements could be encoded element by element.)
struct FieldEncoder {
  /// What one pass produced.
  struct Fields {
    /// The chosen properties the model encoded, each as its JSON.
    var values: [String: Data] = [:]
    /// Every top-level key the model's encoding visited, chosen or not.
    var visited: Set<String> = []
  }

  /// Which properties to encode: all of them, or those with these keys.
  enum Selection {
    case all
    case keys(Set<String>)

    func contains(_ key: String) -> Bool {
      switch self {
      case .all: true
      case .keys(let keys): keys.contains(key)
      }
    }
  }

  private let json: JSONEncoder

  init() {
    json = JSONEncoder()
    json.outputFormatting = [.sortedKeys]
  }

  /// Encodes the properties of `model` that `keys` selects; `nil` if the model's
  /// encoding can't be split by property.
  /// - Throws: The first error encoding a selected property threw.
  func encode(_ model: some Encodable, keys: Selection) throws -> Fields? {
    let encoder = SplittingEncoder(selection: keys, json: json)
    try model.encode(to: encoder)
    if let error = encoder.state.error { throw error }
    guard encoder.state.isSplittable else { return nil }
    return encoder.state.fields
  }
}

/// The stand-in encoder of ``FieldEncoder``: one keyed container at the top level.
private final class SplittingEncoder: Encoder {
  final class State {
    let selection: FieldEncoder.Selection
    let json: JSONEncoder
    var fields = FieldEncoder.Fields()
    var isSplittable = true
    var error: (any Error)?

    init(selection: FieldEncoder.Selection, json: JSONEncoder) {
      self.selection = selection
      self.json = json
    }
  }

  let state: State
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }
  private var handedOutContainer = false

  init(selection: FieldEncoder.Selection, json: JSONEncoder) {
    state = State(selection: selection, json: json)
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    // A second keyed container at the top adds to the same object (as JSONEncoder's does).
    handedOutContainer = true
    return KeyedEncodingContainer(TopLevelContainer<Key>(state: state))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    state.isSplittable = false
    return Discarding.Unkeyed()
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    state.isSplittable = false
    return Discarding.Single()
  }
}

/// The top-level container: encodes the chosen values, notes every key.
private struct TopLevelContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let state: SplittingEncoder.State
  var codingPath: [any CodingKey] { [] }

  private func add<Value: Encodable>(_ value: Value, _ key: Key) {
    let name = key.stringValue
    state.fields.visited.insert(name)
    guard state.selection.contains(name), state.error == nil else { return }
    do {
      state.fields.values[name] = try state.json.encode(value)
    } catch {
      state.error = error
    }
  }

  private func visit(_ key: Key) {
    state.fields.visited.insert(key.stringValue)
  }

  mutating func encodeNil(forKey key: Key) throws { add(Optional<Int>.none, key) }
  mutating func encode(_ value: Bool, forKey key: Key) throws { add(value, key) }
  mutating func encode(_ value: String, forKey key: Key) throws { add(value, key) }
  mutating func encode(_ value: Double, forKey key: Key) throws { add(value, key) }
  mutating func encode(_ value: Float, forKey key: Key) throws { add(value, key) }
  mutating func encode(_ value: Int, forKey key: Key) throws { add(value, key) }
  mutating func encode(_ value: Int8, forKey key: Key) throws { add(value, key) }
  mutating func encode(_ value: Int16, forKey key: Key) throws { add(value, key) }
  mutating func encode(_ value: Int32, forKey key: Key) throws { add(value, key) }
  mutating func encode(_ value: Int64, forKey key: Key) throws { add(value, key) }
  mutating func encode(_ value: UInt, forKey key: Key) throws { add(value, key) }
  mutating func encode(_ value: UInt8, forKey key: Key) throws { add(value, key) }
  mutating func encode(_ value: UInt16, forKey key: Key) throws { add(value, key) }
  mutating func encode(_ value: UInt32, forKey key: Key) throws { add(value, key) }
  mutating func encode(_ value: UInt64, forKey key: Key) throws { add(value, key) }
  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { add(value, key) }

  // A `nil` optional is skipped by `encodeIfPresent`, but its key is noted: the
  // property exists, and has no value now.
  mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { present(value, key) }
  mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { present(value, key) }
  mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { present(value, key) }
  mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { present(value, key) }
  mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { present(value, key) }
  mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { present(value, key) }
  mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { present(value, key) }
  mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { present(value, key) }
  mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { present(value, key) }
  mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { present(value, key) }
  mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { present(value, key) }
  mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { present(value, key) }
  mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { present(value, key) }
  mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { present(value, key) }
  mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws { present(value, key) }

  private func present<Value: Encodable>(_ value: Value?, _ key: Key) {
    if let value { add(value, key) } else { visit(key) }
  }

  // Anything built piece by piece under a key can't be captured as one value.
  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    unsplittable(key)
    return KeyedEncodingContainer(Discarding.Keyed<NestedKey>())
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    unsplittable(key)
    return Discarding.Unkeyed()
  }

  mutating func superEncoder() -> any Encoder {
    state.isSplittable = false
    return Discarding.Whole()
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    unsplittable(key)
    return Discarding.Whole()
  }

  private func unsplittable(_ key: Key) {
    visit(key)
    state.isSplittable = false
  }
}

/// Containers that accept anything and keep nothing: handed out where the model's
/// encoding goes beyond what ``FieldEncoder`` splits, after it has given up.
private enum Discarding {
  struct Whole: Encoder {
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
      KeyedEncodingContainer(Keyed<Key>())
    }
    func unkeyedContainer() -> any UnkeyedEncodingContainer { Unkeyed() }
    func singleValueContainer() -> any SingleValueEncodingContainer { Single() }
  }

  struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
    var codingPath: [any CodingKey] { [] }
    mutating func encodeNil(forKey key: Key) throws {}
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {}
    mutating func nestedContainer<NestedKey: CodingKey>(
      keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> { KeyedEncodingContainer(Keyed<NestedKey>()) }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { Unkeyed() }
    mutating func superEncoder() -> any Encoder { Whole() }
    mutating func superEncoder(forKey key: Key) -> any Encoder { Whole() }
  }

  struct Unkeyed: UnkeyedEncodingContainer {
    var codingPath: [any CodingKey] { [] }
    var count = 0
    mutating func encodeNil() throws { count += 1 }
    mutating func encode<T: Encodable>(_ value: T) throws { count += 1 }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
      -> KeyedEncodingContainer<NestedKey>
    { KeyedEncodingContainer(Keyed<NestedKey>()) }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { Unkeyed() }
    mutating func superEncoder() -> any Encoder { Whole() }
  }

  struct Single: SingleValueEncodingContainer {
    var codingPath: [any CodingKey] { [] }
    mutating func encodeNil() throws {}
    mutating func encode<T: Encodable>(_ value: T) throws {}
  }
}
