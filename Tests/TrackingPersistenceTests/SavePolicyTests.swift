import Foundation
import Testing
import Tracking
import TrackingPersistence

/// What each save policy writes, and that nothing is lost whatever the policy.
/// Intervals are an hour where a write must *not* happen yet, so no timing decides.
@MainActor
@Suite("Save policy")
struct SavePolicyTests {
  @Test(arguments: Backend.allCases)
  func theDefaultStateIsWrittenAtFirstSave(_ backend: Backend) async throws {
    let directory = try TemporaryDirectory()
    let storage = try backend.storage(in: directory.url)
    let persisted = Persisted(storage: storage) { Scene() }
    // (The count goes up just after the storage returns: wait for both.)
    try await eventually { try storedState(storage) == SceneState(query: "", path: []) && persisted.saveCount == 1 }
  }

  @Test func theDefaultsDoNotOverwriteWhatAnotherWriterStoredMeanwhile() throws {
    let directory = try TemporaryDirectory()
    let storage = try Backend.file.storage(in: directory.url) as! JSONFileStorage
    // Another writer is mid-save (it holds the lock) when this one finds nothing stored:
    // this one's defaults wait for the lock…
    let holder = TimeoutTests.LockHolder(storage.lockURL)
    let late = Persisted(storage: storage, savePolicy: .debounce(seconds: 3600)) { Scene() }
    // …while the other writer's value lands.
    try Data(#"{"filters":{"onlyFavorites":false},"path":[],"query":"first","zoom":1}"#.utf8).write(to: storage.url)
    holder.release()
    try late.flush()  // the defaults went in only where nothing was stored
    #expect(try storedState(storage)?.query == "first")
    #expect(late.model.query == "first")  // and the write brought the other writer's change
  }

  @Test func aLeadingEdgeWritesTheFirstChangeAtOnceAndHoldsTheNext() async throws {
    let directory = try TemporaryDirectory()
    let storage = try Backend.file.storage(in: directory.url)
    let persisted = Persisted(storage: storage, savePolicy: .throttle(seconds: 3600)) { Scene() }
    try await eventually { persisted.saveCount == 1 }  // the defaults opened the window at once
    persisted.model.query = "held"
    try await eventually { persisted.hasUnsavedChanges }
    #expect(try storedState(storage)?.query == "")  // the window lasts an hour
    try persisted.flush()
    #expect(try storedState(storage)?.query == "held")
  }

  @Test func aTrailingEdgeWritesOnceTheChangesSettle() async throws {
    let directory = try TemporaryDirectory()
    let storage = try Backend.file.storage(in: directory.url)
    let persisted = Persisted(storage: storage, savePolicy: .debounce(seconds: 0.01)) { Scene() }
    for index in 0..<20 {
      persisted.model.query = "query \(index)"
      await Task.yield()
    }
    try await eventually { try storedState(storage)?.query == "query 19" && !persisted.hasUnsavedChanges }
  }

  @Test(arguments: Backend.allCases)
  func aPersistedThatGoesAwayWritesWhatIsWaiting(_ backend: Backend) throws {
    let directory = try TemporaryDirectory()
    let storage = try backend.storage(in: directory.url)
    do {
      let persisted = Persisted(storage: storage, savePolicy: .debounce(seconds: 3600)) { Scene() }
      persisted.model.query = "unsaved at exit"
      persisted.model.path = ["not yet recorded either"]
      #expect(try storedState(storage)?.query != "unsaved at exit")
    }  // deinit, on the main thread: the final save happens before it returns
    #expect(try storedState(storage) == SceneState(query: "unsaved at exit", path: ["not yet recorded either"]))
  }

  @Test func aStoppedPersistedStillWritesWhatItRecordedButNothingAfter() throws {
    let directory = try TemporaryDirectory()
    let storage = try Backend.file.storage(in: directory.url)
    let persisted = Persisted(storage: storage, savePolicy: .debounce(seconds: 3600)) { Scene() }
    persisted.model.query = "recorded"
    try persisted.flush()
    persisted.stop()
    persisted.model.query = "after stop"
    try persisted.flush()
    #expect(try storedState(storage)?.query == "recorded")
  }
}
