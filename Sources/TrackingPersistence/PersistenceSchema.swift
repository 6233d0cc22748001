import Foundation

/// The version of a persisted model's stored form, and how to read a value stored by
/// an older version.
///
/// ```swift
/// // Version 1 stored `{"text": "tea"}`; version 2 calls it `query` and adds `path`.
/// struct SceneV1: Decodable { var text: String }
///
/// let persisted = Persisted(
///   fileAt: url,
///   schema: PersistenceSchema(version: 2) { stored in
///     let old = try stored.decode(SceneV1.self)   // stored.version is 1 (or 0: saved before versions)
///     let scene = Scene()
///     scene.query = old.text
///     return scene
///   }
/// ) { Scene() }
/// ```
///
/// The version is stored with the value, under the key `"$version"` of the model's
/// JSON object (a value without it is version 0). A stored value of an older version
/// goes through `migrate`, and the result is written back at once in the new form. A
/// value of a *newer* version (saved by a newer app) is not read and never overwritten:
/// restoring reports ``PersistenceError/newerSchemaVersion(stored:supported:)`` and
/// saving stays off. If `migrate` throws, the old value is moved aside and
/// ``PersistenceError/migrationFailed(underlying:fromVersion:movedTo:)`` is reported.
///
/// `migrate` runs on the model's actor, when the model is restored and when another
/// writer stores a value of an older version.
public struct PersistenceSchema<Model> {
  /// The version this build of the app writes (at least 1).
  public let version: Int
  let migrate: (StoredModelValue) throws -> Model

  /// A schema at `version`, reading older stored values with `migrate`.
  public init(version: Int, migrate: @escaping (_ stored: StoredModelValue) throws -> Model) {
    precondition(version >= 1, "a schema version is at least 1 (0 means a value stored without a version)")
    self.version = version
    self.migrate = migrate
  }
}

/// The key of the schema version in the stored JSON object.
let schemaVersionKey = "$version"

/// A value stored by an older version of a model, handed to a schema's migration.
public struct StoredModelValue: Sendable {
  /// The version that stored it (0: stored before the model had a schema version).
  public let version: Int
  /// The stored bytes: JSON.
  public let data: Data

  /// Decodes the stored value as `type` (usually the old version's shape).
  public func decode<Value: Decodable>(_ type: Value.Type = Value.self) throws -> Value {
    try JSONDecoder().decode(Value.self, from: data)
  }
}

/// Reads the version stored in a document (0 if there is none).
func storedSchemaVersion(of document: StoredDocument) throws -> Int {
  guard let fragment = document.fields[schemaVersionKey] else { return 0 }
  return try JSONDecoder().decode(Int.self, from: fragment)
}
