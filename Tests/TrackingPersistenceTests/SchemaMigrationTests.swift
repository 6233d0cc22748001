import Foundation
import Testing
import Tracking
import TrackingPersistence

/// Version 1 of the scene stored `{"text": …, "crumbs": …}`.
private struct SceneV1: Codable {
  var text: String
  var crumbs: [String]
}

@MainActor
@Suite("Schema versions")
struct SchemaMigrationTests {
  /// Version 2: the scene as the tests know it.
  static func schema(migrations: Counter? = nil) -> PersistenceSchema<Scene> {
    PersistenceSchema(version: 2) { stored in
      migrations?.count += 1
      guard stored.version == 1 || stored.version == 0 else { throw UnknownVersion(version: stored.version) }
      let old = try stored.decode(SceneV1.self)
      let scene = Scene()
      scene.query = old.text
      scene.path = old.crumbs
      return scene
    }
  }

  struct UnknownVersion: Error { var version: Int }
  final class Counter { var count = 0 }

  private func json(_ data: Data?) throws -> [String: Any]? {
    guard let data else { return nil }
    return try JSONSerialization.jsonObject(with: data) as? [String: Any]
  }

  @Test(arguments: Backend.allCases)
  func anOlderValueIsMigratedAndWrittenBackInTheNewForm(_ backend: Backend) throws {
    let directory = try TemporaryDirectory()
    let storage = try backend.storage(in: directory.url)
    try storage.save(Data(#"{"$version":1,"text":"tea","crumbs":["shop"]}"#.utf8))
    let migrations = Counter()
    let persisted = Persisted(storage: storage, schema: Self.schema(migrations: migrations)) { Scene() }
    #expect(persisted.restoreError == nil)
    #expect(migrations.count == 1)
    #expect(persisted.model.query == "tea" && persisted.model.path == ["shop"])
    try persisted.flush()
    let stored = try #require(try json(storage.load()))
    #expect(stored["$version"] as? Int == 2)
    #expect(stored["query"] as? String == "tea")
    #expect(stored["text"] == nil && stored["crumbs"] == nil)  // the old form is gone

    let again = Persisted(storage: storage, schema: Self.schema(migrations: migrations)) { Scene() }
    #expect(migrations.count == 1)  // read as it is now
    #expect(again.model.query == "tea")
  }

  /// Main-actor state, touched by a migration written in main-actor code.
  @MainActor static var migratedVersions: [Int] = []

  @Test func aValueStoredWithoutAVersionIsVersionZeroAndTheMigrationRunsOnTheModelsActor() throws {
    let directory = try TemporaryDirectory()
    let storage = try Backend.file.storage(in: directory.url)
    try storage.save(Data(#"{"text":"unversioned","crumbs":[]}"#.utf8))
    Self.migratedVersions = []
    let persisted = Persisted(
      storage: storage,
      schema: PersistenceSchema(version: 2) { stored in
        Self.migratedVersions.append(stored.version)  // a main-actor closure: it runs there
        let scene = Scene()
        scene.query = try stored.decode(SceneV1.self).text
        return scene
      }
    ) { Scene() }
    #expect(persisted.model.query == "unversioned")
    #expect(Self.migratedVersions == [0])
  }

  @Test(arguments: Backend.allCases)
  func aNewerValueIsNeitherReadNorOverwritten(_ backend: Backend) throws {
    let directory = try TemporaryDirectory()
    let storage = try backend.storage(in: directory.url)
    let newer = Data(#"{"$version":3,"query":"from the future","path":[],"zoom":1,"filters":{"onlyFavorites":false}}"#.utf8)
    try storage.save(newer)
    let persisted = Persisted(storage: storage, schema: Self.schema()) { Scene() }
    guard case .newerSchemaVersion(let stored, let supported) = persisted.restoreError else {
      Issue.record("expected a newer schema version, got \(String(describing: persisted.restoreError))")
      return
    }
    #expect(stored == 3 && supported == 2)
    #expect(!persisted.isSaving)
    #expect(persisted.status == .disabled(.newerSchemaVersion(stored: 3, supported: 2)))
    persisted.model.query = "would overwrite"
    #expect(throws: PersistenceError.self) { try persisted.flush() }  // saving is off: said, not silent
    #expect(persisted.hasUnsavedChanges)
    #expect(try storage.load() == newer)
  }

  @Test func aFailedMigrationMovesTheOldValueAsideAndStartsFromTheDefaults() throws {
    let directory = try TemporaryDirectory()
    let storage = try Backend.file.storage(in: directory.url)
    let old = Data(#"{"$version":1,"words":"not what version 1 stored"}"#.utf8)
    try storage.save(old)
    let persisted = Persisted(storage: storage, schema: Self.schema()) { Scene() }
    guard case .migrationFailed(let underlying, let version, let location) = persisted.restoreError else {
      Issue.record("expected a failed migration, got \(String(describing: persisted.restoreError))")
      return
    }
    #expect(underlying is DecodingError)
    #expect(version == 1)
    #expect(try storage.quarantinedData(at: location) == old)
    #expect(persisted.model.query == "")
    try persisted.flush()
    #expect(try json(storage.load())?["$version"] as? Int == 2)  // the defaults, in the new form
  }

  @Test func anotherWriterOfAnOlderVersionIsMigratedOnTheFly() async throws {
    let directory = try TemporaryDirectory()
    let storage = try Backend.file.storage(in: directory.url)
    let persisted = Persisted(storage: storage, schema: Self.schema()) { Scene() }
    try persisted.flush()
    // An old build of the app, still running somewhere, stores its form.
    try Backend.file.storage(in: directory.url).save(Data(#"{"$version":1,"text":"old app","crumbs":[]}"#.utf8))
    try await eventually { persisted.model.query == "old app" }
    try await eventually { try json(storage.load())?["$version"] as? Int == 2 }  // written back in the new form
    #expect(try storedState(storage)?.query == "old app")
  }
}
