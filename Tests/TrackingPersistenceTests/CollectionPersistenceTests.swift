import Foundation
import Testing
@_spi(Testing) import Tracking
@testable import TrackingPersistence

struct Note: Identifiable, Codable, Equatable, Sendable {
  let id: Int
  var text: String
}

@Trackable final class Notebook: Codable {
  var notes: TrackedList<Note> = [Note(id: 1, text: "first")]
  var tags: TrackedDictionary<String, Int> = [:]
  var archive: TrackedList<Note>? = nil
  var title = ""
}

/// Fields of every kind the persistence layer must tell apart, in a class hierarchy.
@Trackable class ShelfBase {
  var inherited: TrackedList<Note> = []
  var count = 0
}

@Trackable final class Shelf: ShelfBase {
  var notes: TrackedList<Note> = []
  var anything: Any = 0
  var maybeAnything: (any Sendable)? = nil
  var numbers = [1, 2, 3]
  var label: String? = nil
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

  /// An optional collection, and a collection that replaced the first one: edits in
  /// place of either are saved too.
  @Test(arguments: Backend.allCases)
  func anInPlaceEditOfAnOptionalOrReplacedCollectionIsSaved(_ backend: Backend) throws {
    let directory = try TemporaryDirectory()
    let persisted = Persisted(storage: try backend.storage(in: directory.url)) { Notebook() }
    try persisted.flush()
    persisted.model.archive = [Note(id: 7, text: "archived")]
    try persisted.flush()
    persisted.model.archive?[id: 7]?.text = "edited in the archive"
    #expect(persisted.hasUnsavedChanges)
    try persisted.flush()
    persisted.model.notes = [Note(id: 2, text: "second")]
    try persisted.flush()
    persisted.model.notes[id: 2]?.text = "edited after the replacement"
    #expect(persisted.hasUnsavedChanges)
    try persisted.flush()
    let restored = Persisted(storage: try backend.storage(in: directory.url)) { Notebook() }
    #expect(restored.model.archive?[id: 7]?.text == "edited in the archive")
    #expect(restored.model.notes[id: 2]?.text == "edited after the replacement")
  }

  /// Which properties are read in place for their elements: the collections, optional
  /// or not, and what may hold one (an existential); not the others; and each class
  /// level only its own.
  @Test func theFieldsReadForTheirElementsAreTheOnesThatMayHoldACollection() throws {
    let levels = TrackedObject(Shelf()).levels
    try #require(levels.count == 2)
    let own = try #require(levels[0].collectionFields)
    let names = levels[0].names
    #expect(zip(names, own).filter { $0.1 != nil }.map(\.0) == ["notes", "anything", "maybeAnything"])
    let inherited = try #require(levels[1].collectionFields)
    #expect(zip(levels[1].names, inherited).filter { $0.1 != nil }.map(\.0) == ["inherited"])
  }
}
