/// Where a ``TrackedExternally(_:)`` property keeps its value.
///
/// Conform a type that knows how to load and store one value, for example an entry in
/// `UserDefaults`:
///
/// ```swift
/// struct DefaultsValue<Value>: ExternalStorage {
///   let key: String
///   let `default`: Value
///   func load() -> Value { UserDefaults.standard.object(forKey: key) as? Value ?? `default` }
///   func store(_ value: Value) { UserDefaults.standard.set(value, forKey: key) }
/// }
/// ```
public protocol ExternalStorage<Value> {
  /// The type of the stored value.
  associatedtype Value
  /// Reads the current value.
  func load() -> Value
  /// Writes a new value.
  func store(_ newValue: Value)
}

/// An ``ExternalStorage`` made of two closures, for one-off storage.
///
/// ```swift
/// @TrackedExternally(ExternalValue(get: { buffer.pointee.level }, set: { buffer.pointee.level = $0 }))
/// var level: Int
/// ```
public struct ExternalValue<Value>: ExternalStorage {
  private let get: () -> Value
  private let set: (Value) -> Void

  /// Creates storage that reads with `get` and writes with `set`.
  public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) {
    self.get = get
    self.set = set
  }

  public func load() -> Value { get() }
  public func store(_ newValue: Value) { set(newValue) }
}
