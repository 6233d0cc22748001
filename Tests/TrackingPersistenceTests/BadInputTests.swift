import Foundation
import Testing
@_spi(Testing) import Tracking
import TrackingPersistence

@MainActor
@Suite("Corrupt input")
struct CorruptInputTests {
  static let garbage = Data([0xFF, 0x00, 0x7B, 0x22, 0x71, 0xC3, 0x28])
  static let wrongShape = Data(#"{"query": 42, "path": "not a list"}"#.utf8)

  @Test(arguments: Backend.allCases)
  func garbageIsReportedAsCorruptAndMovedAside(_ backend: Backend) throws {
    let directory = try TemporaryDirectory()
    let storage = try backend.storage(in: directory.url)
    try storage.save(Self.garbage)
    let errors = ErrorLog()
    let persisted = Persisted(storage: storage, onError: errors.report) { Scene() }

    guard case .corrupt(_, let location) = persisted.restoreError else {
      Issue.record("expected a corrupt error, got \(String(describing: persisted.restoreError))")
      return
    }
    #expect(errors.errors.count == 1)
    #expect(persisted.model.query == "")  // defaults kept
    #expect(persisted.isSaving)
    #expect(try storage.load() != Self.garbage)  // moved aside (the defaults take its place)…
    #expect(try storage.quarantinedData(at: location) == Self.garbage)  // …and still readable there

    // New saves don't touch the quarantined value.
    persisted.model.query = "fresh"
    try persisted.flush()
    #expect(try storedState(storage)?.query == "fresh")
    #expect(try storage.quarantinedData(at: location) == Self.garbage)
  }

  @Test(arguments: Backend.allCases)
  func aValueOfTheWrongShapeIsASchemaMismatch(_ backend: Backend) throws {
    let directory = try TemporaryDirectory()
    let storage = try backend.storage(in: directory.url)
    try storage.save(Self.wrongShape)
    let persisted = Persisted(storage: storage) { Scene() }

    guard case .schemaMismatch(let decodingError, let location) = persisted.restoreError else {
      Issue.record("expected a schema mismatch, got \(String(describing: persisted.restoreError))")
      return
    }
    guard case .typeMismatch = decodingError else {
      Issue.record("expected a type mismatch, got \(decodingError)")
      return
    }
    #expect(persisted.model.query == "" && persisted.model.path == [])
    #expect(try storage.load() != Self.wrongShape)
    #expect(try storage.quarantinedData(at: location) == Self.wrongShape)
  }

  @Test(arguments: Backend.allCases)
  func aSecondBadValueDoesNotOverwriteTheFirst(_ backend: Backend) throws {
    let directory = try TemporaryDirectory()
    let storage = try backend.storage(in: directory.url)
    try storage.save(Self.garbage)
    let first = Persisted(storage: storage) { Scene() }.restoreError
    try storage.save(Self.wrongShape)
    let second = Persisted(storage: storage) { Scene() }.restoreError
    guard case .corrupt(_, let firstLocation) = first, case .schemaMismatch(_, let secondLocation) = second else {
      Issue.record("unexpected errors: \(String(describing: first)), \(String(describing: second))")
      return
    }
    #expect(firstLocation != secondLocation)
    #expect(try storage.quarantinedData(at: firstLocation) == Self.garbage)
    #expect(try storage.quarantinedData(at: secondLocation) == Self.wrongShape)
  }
}

@MainActor
@Suite("Failed writes")
struct FailedWriteTests {
  @Test(arguments: Backend.allCases)
  func aFailedWriteIsReportedKeepsTheSavedValueAndIsRetried(_ backend: Backend) async throws {
    let directory = try TemporaryDirectory()
    let storage = FaultyStorage(try backend.storage(in: directory.url))
    let errors = ErrorLog()
    let persisted = Persisted(storage: storage, onError: errors.report) { Scene() }
    persisted.model.query = "saved"
    try persisted.flush()

    storage.isFailingWrites = true  // the disk is full
    persisted.model.query = "lost?"
    // (The writer counts the failure a moment before it reports it.)
    try await eventually { persisted.failedSaveCount == 1 && !errors.errors.isEmpty }
    guard case .writeFailed(let underlying)? = errors.errors.first else {
      Issue.record("expected a write failure, got \(errors.errors)")
      return
    }
    #expect(underlying is FaultyStorage.Fault)
    #expect(try storedState(storage)?.query == "saved")  // nothing saved is lost
    #expect(persisted.hasUnsavedChanges)
    #expect(throws: PersistenceError.self) { try persisted.flush() }
    #expect(try storedState(storage)?.query == "saved")

    storage.isFailingWrites = false  // space freed: the next change goes through
    persisted.model.path = ["retried"]
    // (The file is replaced a moment before the writer counts the write as done.)
    try await eventually {
      try storedState(storage) == SceneState(query: "lost?", path: ["retried"]) && !persisted.hasUnsavedChanges
    }
  }

  @Test(arguments: Backend.allCases)
  func flushRetriesAFailedWriteWithoutAnotherChange(_ backend: Backend) async throws {
    let directory = try TemporaryDirectory()
    let storage = FaultyStorage(try backend.storage(in: directory.url), failWrites: true)
    let persisted = Persisted(storage: storage) { Scene() }
    persisted.model.query = "pending"
    try await eventually { persisted.failedSaveCount >= 1 }
    #expect(try storage.load() == nil)
    storage.isFailingWrites = false
    try persisted.flush()
    #expect(try storedState(storage)?.query == "pending")
  }

  @Test func aFileUnderARegularFileFailsAndSucceedsOnceTheDirectoryExists() async throws {
    let directory = try TemporaryDirectory()
    // The parent "directory" is a regular file: creating the temporary file fails,
    // even for root (chmod would not stop root).
    let parent = directory.url.appendingPathComponent("blocked")
    try Data("not a directory".utf8).write(to: parent)
    let storage = JSONFileStorage(url: parent.appendingPathComponent("scene.json"))
    let errors = ErrorLog()
    let persisted = Persisted(storage: storage, onError: errors.report) { Scene() }
    #expect(persisted.restoreError == nil)

    persisted.model.query = "first"
    try await eventually { !errors.errors.isEmpty }
    guard case .writeFailed(let underlying)? = errors.errors.first, let failure = underlying as? POSIXFailure else {
      Issue.record("expected a POSIX write failure, got \(errors.errors)")
      return
    }
    #expect(failure.code == ENOTDIR)

    try FileManager.default.removeItem(at: parent)
    try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: false)
    persisted.model.query = "second"
    try await eventually { try storedState(storage)?.query == "second" }
  }

  @Test func aModelThatCannotBeEncodedIsReportedAndNothingIsWritten() async throws {
    let directory = try TemporaryDirectory()
    let storage = JSONFileStorage(url: directory.url.appendingPathComponent("scene.json"))
    let errors = ErrorLog()
    let persisted = Persisted(storage: storage, onError: errors.report) { Scene() }
    persisted.model.query = "good"
    try persisted.flush()
    let written = persisted.saveCount
    persisted.model.zoom = .nan
    #expect {
      try persisted.flush()
    } throws: { error in
      guard case .encodingFailed = error as? PersistenceError else { return false }
      return true
    }
    #expect(try storedState(storage)?.query == "good")
    // Still observed: fixing the value saves again.
    persisted.model.zoom = 2
    try await eventually { persisted.saveCount == written + 1 }
  }
}
