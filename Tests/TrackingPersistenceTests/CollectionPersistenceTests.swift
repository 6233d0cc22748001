import Foundation
import Testing
@_spi(Testing) import Tracking
import TrackingPersistence

struct Note: Identifiable, Codable, Equatable, Sendable {
  let id: Int
  var text: String
}

@Trackable final class Notebook: Codable {
  var notes: TrackedList<Note> = [Note(id: 1, text: "first")]
  var tags: TrackedDictionary<String, Int> = [:]
}

@MainActor
@Suite("Saving tracked collections")
struct CollectionPersistenceTests {
  /// An in-place edit of one element does not notify the property's readers; saving
  /// must still see it (reading the collection as a whole).
  @Test(arguments: Backend.allCases)
  func anInPlaceEditOfOneElementIsSaved(_ backend: Backend) throws {
    let directory = try TemporaryDirectory()
    let storage = try backend.storage(in: directory.url)
    let persisted = Persisted(storage: storage) { Notebook() }
    try persisted.flush()
    persisted.model.notes[id: 1]?.text = "edited in place"
    #expect(persisted.hasUnsavedChanges)
    persisted.model.tags["swift"] = 1
    try persisted.flush()
    persisted.model.tags["swift"]! += 1
    #expect(persisted.hasUnsavedChanges)
    try persisted.flush()
    let restored = Persisted(storage: try backend.storage(in: directory.url)) { Notebook() }
    #expect(restored.restoreError == nil)
    #expect(restored.model.notes[id: 1]?.text == "edited in place")
    #expect(restored.model.tags["swift"] == 2)
  }
}
