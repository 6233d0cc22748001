import Foundation

/// Two writers changed the same property: what a write finds when another writer's
/// change of a property was stored after this writer's change was made (the stored
/// value is no longer the one this writer's change was made against — even if both
/// writers arrived at the same value).
///
/// By default there is nothing to decide: the write that commits last wins (see
/// "Conflicts" in the *Persistence* article). A model that needs another rule — a counter
/// whose increments add up, a set that takes both sides' additions, a value that keeps
/// its highest version — passes a resolver to ``Persisted``:
///
/// ```swift
/// let persisted = Persisted(storage: storage, resolvingConflicts: { conflict in
///   guard conflict.key == "visits", let visits = try? conflict.decode(Int.self) else { return .mine }
///   // Both writers counted visits since `base`: keep both counts.
///   let sum = (visits.stored ?? 0) + (visits.mine ?? 0) - (visits.base ?? 0)
///   return (try? .encoding(sum)) ?? .mine
/// }) { Site() }
/// ```
///
/// The resolver runs inside the storage's atomic update (under the file lock, in the
/// SQLite or PostgreSQL transaction), on ``Persisted``'s background queue, once per
/// conflicting property of a write: keep it quick, and don't touch the model there.
/// Values are the properties' JSON, as the model encodes them.
public struct PropertyConflict: Sendable, Equatable {
  /// The property's key in the stored JSON object (its name, for a `@Trackable`
  /// class without its own coding keys).
  public let key: String
  /// The property's value when this writer's change was made: what this writer last
  /// restored, reloaded or stored for it. `nil`: it had none.
  public let base: Data?
  /// The value this writer is storing. `nil`: it is removing the property (an optional
  /// that became `nil`).
  public let mine: Data?
  /// The value stored now, written by another writer since `base`. `nil`: none.
  public let stored: Data?

  /// A conflict over `key` (for testing a resolver).
  public init(key: String, base: Data?, mine: Data?, stored: Data?) {
    self.key = key
    self.base = base
    self.mine = mine
    self.stored = stored
  }

  /// The three values decoded as `Value` (each `nil` where there is none).
  public func decode<Value: Decodable>(_ type: Value.Type) throws -> (base: Value?, mine: Value?, stored: Value?) {
    let decoder = JSONDecoder()
    func decoded(_ data: Data?) throws -> Value? { try data.map { try decoder.decode(Value.self, from: $0) } }
    return (try decoded(base), try decoded(mine), try decoded(stored))
  }
}

/// What a resolver decides for a ``PropertyConflict``.
public enum ConflictResolution: Sendable, Equatable {
  /// Store this writer's value: the default rule (the last write to commit wins).
  case mine
  /// Keep the stored value (the first write to commit wins).
  case stored
  /// Store this JSON instead (a value made from the three, say).
  case json(Data)
  /// Remove the property from the stored value.
  case absent

  /// Store `value`, encoded as JSON.
  public static func encoding(_ value: some Encodable) throws -> ConflictResolution {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return .json(try encoder.encode(value))
  }
}

/// Decides a ``PropertyConflict``; called on a background queue.
public typealias ConflictResolver = @Sendable (PropertyConflict) -> ConflictResolution
