import Foundation
import Testing
@_spi(Testing) import Tracking
import TrackingPersistence

@MainActor
@Suite("Saving and restoring")
struct RoundTripTests {
  @Test(arguments: Backend.allCases)
  func savesOnChangeAndRestores(_ backend: Backend) async throws {
    let directory = try TemporaryDirectory()
    let storage = try backend.storage(in: directory.url)
    let errors = ErrorLog()
    do {
      let persisted = Persisted(storage: storage, onError: errors.report) { Scene() }
      #expect(persisted.restoreError == nil)
      #expect(persisted.model.query == "")
      persisted.model.query = "tea"
      persisted.model.path = ["shop", "teas"]
      // Saved without a flush, once the actor is free.
      // (The count goes up just after the storage returns: wait for both.)
      try await eventually {
        try storedState(storage) == SceneState(query: "tea", path: ["shop", "teas"]) && persisted.saveCount >= 1
      }
      #expect(persisted.saveCount <= 2)  // the defaults, written at once, and the change (or both in one)
    }
    let restored = Persisted(storage: try backend.storage(in: directory.url)) { Scene() }
    #expect(restored.restoreError == nil)
    #expect(restored.model.query == "tea")
    #expect(restored.model.path == ["shop", "teas"])
    #expect(restored.saveCount == 0)
    #expect(errors.errors.isEmpty)
  }

  @Test(arguments: Backend.allCases)
  func flushWritesTheLatestStateAtOnce(_ backend: Backend) throws {
    let directory = try TemporaryDirectory()
    let storage = try backend.storage(in: directory.url)
    let persisted = Persisted(storage: storage) { Scene() }
    try persisted.flush()  // the defaults
    let written = persisted.saveCount
    persisted.model.query = "now"
    try persisted.flush()  // no suspension since the change
    #expect(try storedState(storage) == SceneState(query: "now", path: []))
    #expect(persisted.saveCount == written + 1)
    #expect(!persisted.hasUnsavedChanges)
    try persisted.flush()  // nothing new: no write
    #expect(persisted.saveCount == written + 1)
  }

  @Test(arguments: Backend.allCases)
  func aBurstOfMutationsIsOneWrite(_ backend: Backend) async throws {
    let directory = try TemporaryDirectory()
    let storage = try backend.storage(in: directory.url)
    let persisted = Persisted(storage: storage) { Scene() }
    for index in 0..<1000 {
      persisted.model.query = "query \(index)"
      persisted.model.path.append("\(index)")
    }
    try await eventually { try storedState(storage)?.query == "query 999" }
    #expect(try storedState(storage)?.path.count == 1000)
    #expect(persisted.saveCount < 10)
  }

  @Test(arguments: Backend.allCases)
  func separateTransactionsAreThrottledByTheInterval(_ backend: Backend) async throws {
    let directory = try TemporaryDirectory()
    let storage = try backend.storage(in: directory.url)
    let interval = Duration.milliseconds(50)
    let start = ContinuousClock.now
    let persisted = Persisted(storage: storage, savePolicy: .throttle(interval, leading: false)) { Scene() }
    for index in 0..<1000 {
      persisted.model.query = "query \(index)"
      await Task.yield()  // each mutation is its own transaction
    }
    try await eventually { try storedState(storage)?.query == "query 999" }
    // At most one save per interval, however slow the machine: the bound comes from the
    // time that really passed (the defaults at first save, and one trailing save, on top).
    let intervals = Int((ContinuousClock.now - start) / interval)
    #expect(persisted.saveCount <= intervals + 2)
    #expect(persisted.saveCount >= 1)
  }

  @Test(arguments: Backend.allCases)
  func anUnchangedStateIsNotRewritten(_ backend: Backend) async throws {
    let directory = try TemporaryDirectory()
    let storage = try backend.storage(in: directory.url)
    let persisted = Persisted(storage: storage) { Scene() }
    persisted.model.query = "same"
    try persisted.flush()
    let written = persisted.saveCount
    persisted.model.query = "same"
    persisted.model.path = []
    try persisted.flush()
    #expect(persisted.saveCount == written)
  }

  @Test func changesOfNestedTrackedObjectsAreSaved() async throws {
    let directory = try TemporaryDirectory()
    let storage = JSONFileStorage(url: directory.url.appendingPathComponent("scene.json"))
    let persisted = Persisted(storage: storage) { Scene() }
    persisted.model.filters.onlyFavorites = true
    try await eventually { try storage.load().map { String(decoding: $0, as: UTF8.self) }?.contains(#""onlyFavorites":true"#) == true }
    let restored = Persisted(storage: storage) { Scene() }
    #expect(restored.model.filters.onlyFavorites)
  }

  @Test func theFileIsReplacedWithoutLeavingTemporaryFiles() throws {
    let directory = try TemporaryDirectory()
    let persisted = Persisted(fileAt: directory.url.appendingPathComponent("scene.json")) { Scene() }
    persisted.model.query = "a"
    try persisted.flush()
    persisted.model.query = "b"
    try persisted.flush()
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
    #expect(names.sorted() == [".scene.json.lock", "scene.json"])  // the lock file stays; it is empty
  }
}
