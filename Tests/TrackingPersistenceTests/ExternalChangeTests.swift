import Foundation
import Testing
import Tracking
import TrackingPersistence

/// Two writers of one storage in this process (each with its own storage value, as two
/// processes would have): changes reach the other's live model, property by property.
@MainActor
@Suite("Changes made by other writers")
struct ExternalChangeTests {
  @Test(arguments: Backend.changeDetections)
  func anotherWritersChangeReachesOnlyTheObserversOfWhatChanged(_ backend: Backend) async throws {
    let directory = try TemporaryDirectory()
    let writer = Persisted(storage: try backend.storage(in: directory.url)) { Scene() }
    let reader = Persisted(storage: try backend.storage(in: directory.url)) { Scene() }
    #expect(reader.reloadsExternalChanges)
    try writer.flush()
    try reader.flush()
    let queryChanges = ChangeCounter(reader.model) { _ = $0.query }
    let pathChanges = ChangeCounter(reader.model) { _ = $0.path }
    let favoriteChanges = ChangeCounter(reader.model) { _ = $0.filters.onlyFavorites }
    let filtersObject = reader.model.filters

    writer.model.query = "tea"
    writer.model.filters.onlyFavorites = true
    try await eventually { reader.model.query == "tea" && reader.model.filters.onlyFavorites }
    #expect(queryChanges.changes == 1)
    #expect(favoriteChanges.changes == 1)
    #expect(pathChanges.changes == 0)  // equal values are not set: no notification
    #expect(reader.model.filters === filtersObject)  // the nested model was reloaded in place
    #expect(writer.reloadCount == 0)  // its own write is not applied back
  }

  @Test(arguments: Backend.changeDetections)
  func unsavedLocalChangesSurviveAnotherWritersChange(_ backend: Backend) async throws {
    let directory = try TemporaryDirectory()
    let other = Persisted(storage: try backend.storage(in: directory.url)) { Scene() }
    let local = Persisted(storage: try backend.storage(in: directory.url), savePolicy: .debounce(seconds: 3600)) {
      Scene()
    }
    try other.flush()
    try local.flush()
    local.model.path = ["mine, not yet saved"]
    other.model.query = "theirs"
    other.model.path = ["theirs too"]
    try await eventually { local.model.query == "theirs" }
    #expect(local.model.path == ["mine, not yet saved"])  // written later, so it wins
    try local.flush()
    try other.synchronize()
    let both = SceneState(query: "theirs", path: ["mine, not yet saved"])
    #expect(try storedState(local.storage) == both)
    #expect(SceneState(other.model) == both)
  }

  @Test func aPersonEditingTheFileIsSeen() async throws {
    let directory = try TemporaryDirectory()
    let url = directory.url.appendingPathComponent("scene.json")
    let persisted = Persisted(fileAt: url) { Scene() }
    try persisted.flush()
    // An editor that writes the file in place (no rename), as `echo > file` does.
    let edited = #"{"filters":{"onlyFavorites":false},"path":["edited"],"query":"by hand","zoom":1}"#
    try Data(edited.utf8).write(to: url)
    try await eventually { persisted.model.query == "by hand" && persisted.model.path == ["edited"] }
  }

  @Test(arguments: Backend.changeDetections)
  func garbageFromAnotherWriterIsReportedMovedAsideAndReplacedByTheGoodState(_ backend: Backend) async throws {
    let directory = try TemporaryDirectory()
    let storage = try backend.storage(in: directory.url)
    let errors = ErrorLog()
    let persisted = Persisted(storage: storage, onError: errors.report) { Scene() }
    persisted.model.query = "good"
    try persisted.flush()
    let changes = ChangeCounter(persisted.model) { _ = ($0.query, $0.path, $0.zoom) }

    // Another writer (its own connection), or a disk gone wrong.
    try backend.storage(in: directory.url).save(CorruptInputTests.garbage)
    try await eventually { !errors.errors.isEmpty }
    guard case .corrupt(_, let location) = errors.errors.first else {
      Issue.record("expected a corrupt error, got \(errors.errors)")
      return
    }
    #expect(try storage.quarantinedData(at: location) == CorruptInputTests.garbage)  // kept
    try await eventually { try storedState(storage)?.query == "good" }  // the good copy is back
    #expect(persisted.model.query == "good")
    #expect(changes.changes == 0)  // the model was not touched
  }

  @Test(arguments: Backend.changeDetections)
  func aPropertyThatDoesNotDecodeKeepsItsValueAndTheRestIsApplied(_ backend: Backend) async throws {
    let directory = try TemporaryDirectory()
    let storage = try backend.storage(in: directory.url)
    let errors = ErrorLog()
    let persisted = Persisted(storage: storage, onError: errors.report) { Scene() }
    persisted.model.query = "kept"
    try persisted.flush()

    let wrongType = #"{"filters":{"onlyFavorites":false},"path":["applied"],"query":42,"zoom":1}"#
    try backend.storage(in: directory.url).save(Data(wrongType.utf8))
    try await eventually { persisted.model.path == ["applied"] && !errors.errors.isEmpty }
    #expect(persisted.model.query == "kept")
    guard case .schemaMismatch(_, let location) = errors.errors.first else {
      Issue.record("expected a schema mismatch, got \(errors.errors)")
      return
    }
    #expect(try storage.quarantinedData(at: location) == Data(wrongType.utf8))
    try await eventually { try storedState(storage) == SceneState(query: "kept", path: ["applied"]) }
  }

  @Test func aReloadThatMissesAPropertyIsReported() async throws {
    let directory = try TemporaryDirectory()
    let storage = try Backend.file.storage(in: directory.url)
    let errors = ErrorLog()
    let persisted = Persisted(storage: storage, onError: errors.report) { Forgetful() }
    try persisted.flush()
    try Backend.file.storage(in: directory.url).save(Data(#"{"remembered":1,"forgotten":2}"#.utf8))
    try await eventually { persisted.model.remembered == 1 && !errors.errors.isEmpty }
    guard case .reloadIncomplete(let properties) = errors.errors.first else {
      Issue.record("expected an incomplete reload, got \(errors.errors)")
      return
    }
    #expect(properties == ["forgotten"])
    #expect(persisted.model.forgotten == 0)
  }

  @Test func aModelThatIsNotReloadableStillMergesItsWrites() async throws {
    let directory = try TemporaryDirectory()
    let storage = try Backend.file.storage(in: directory.url)
    let plain = Persisted(storage: storage) { Plain() }
    let other = Persisted(storage: try Backend.file.storage(in: directory.url)) { Scene() }
    #expect(!plain.reloadsExternalChanges)
    try plain.flush()
    other.model.path = ["other"]
    try other.flush()
    plain.model.query = "plain"
    try plain.flush()
    // Its write carried only its change: the other writer's is still there.
    #expect(try storedState(storage) == SceneState(query: "plain", path: ["other"]))
  }
}

/// A model whose reload forgets a property.
@Trackable final class Forgetful: Codable, ReloadableModel {
  var remembered = 0
  var forgotten = 0
  func reload(from newer: Forgetful) { remembered = newer.remembered }
}

/// A model that does not reload.
@Trackable final class Plain: Codable {
  var query = ""
  var path: [String] = []
}

extension SceneState {
  @MainActor init(_ scene: Scene) {
    self.init(query: scene.query, path: scene.path)
  }
}

/// A model whose encoding is not a JSON object: stored, merged and reloaded whole.
@Trackable final class Tags: Codable, ReloadableModel {
  var items: [String] = []

  init() {}
  required init(from decoder: any Decoder) throws {
    items = try decoder.singleValueContainer().decode([String].self)
  }
  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(items)
  }
  func reload(from newer: Tags) { items = newer.items }
}

@MainActor
@Suite("A value that is not an object")
struct WholeValueTests {
  @Test func isStoredRestoredAndReloadedWhole() async throws {
    let directory = try TemporaryDirectory()
    let first = Persisted(storage: try Backend.file.storage(in: directory.url)) { Tags() }
    let second = Persisted(storage: try Backend.file.storage(in: directory.url)) { Tags() }
    first.model.items = ["a", "b"]
    try first.flush()
    #expect(try first.storage.load() == Data(#"["a","b"]"#.utf8))
    try await eventually { second.model.items == ["a", "b"] }
    second.model.items.append("c")
    try second.flush()
    try await eventually { first.model.items == ["a", "b", "c"] }
    let restored = Persisted(storage: try Backend.file.storage(in: directory.url)) { Tags() }
    #expect(restored.model.items == ["a", "b", "c"])
  }
}

/// A model that encodes a property inside a nested container: its encoding is a JSON
/// object, but not one property per top-level key.
@Trackable final class Profile: Codable, ReloadableModel {
  var name = ""
  var city = ""

  private enum Keys: String, CodingKey { case name, address }
  private enum AddressKeys: String, CodingKey { case city }

  init() {}
  required init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Keys.self)
    name = try container.decode(String.self, forKey: .name)
    city = try container.nestedContainer(keyedBy: AddressKeys.self, forKey: .address).decode(String.self, forKey: .city)
  }
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Keys.self)
    try container.encode(name, forKey: .name)
    var address = container.nestedContainer(keyedBy: AddressKeys.self, forKey: .address)
    try address.encode(city, forKey: .city)
  }
  func reload(from newer: Profile) {
    name = newer.name
    city = newer.city
  }
}

@MainActor
@Suite("A value with a nested container")
struct NestedContainerTests {
  /// A change of the nested property cannot be encoded on its own: the model is stored
  /// whole, and nothing is lost, as it is restored and as another writer sees it.
  @Test func isStoredWholeAndNothingIsLost() async throws {
    let directory = try TemporaryDirectory()
    let first = Persisted(storage: try Backend.file.storage(in: directory.url)) { Profile() }
    let second = Persisted(storage: try Backend.file.storage(in: directory.url)) { Profile() }
    first.model.name = "Ada"
    first.model.city = "London"
    try first.flush()
    let stored = try #require(try first.storage.load())
    let object = try #require(try JSONSerialization.jsonObject(with: stored) as? [String: Any])
    #expect(object["name"] as? String == "Ada")
    #expect((object["address"] as? [String: Any])?["city"] as? String == "London")
    try await eventually { second.model.city == "London" && second.model.name == "Ada" }
    second.model.city = "Paris"
    try second.flush()
    try await eventually { first.model.city == "Paris" }
    #expect(first.model.name == "Ada")
    let restored = Persisted(storage: try Backend.file.storage(in: directory.url)) { Profile() }
    #expect(restored.model.name == "Ada")
    #expect(restored.model.city == "Paris")
  }
}
