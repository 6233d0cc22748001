import Foundation
import Testing
import Tracking
import TrackingPersistence

#if canImport(Glibc)
  import Glibc
#endif

/// Stored files as people and other programs leave them: a byte order mark, a key
/// written twice, numbers too big, long names, links, temporary files of a killed
/// writer, directories one may not write.
@MainActor
@Suite("Files as they come")
struct FileStorageEdgeTests {
  private func storage(in directory: TemporaryDirectory, named name: String = "scene.json") -> JSONFileStorage {
    JSONFileStorage(url: directory.url.appendingPathComponent(name))
  }

  @Test func aFileWithAByteOrderMarkIsRead() throws {
    let directory = try TemporaryDirectory()
    let storage = storage(in: directory)
    let json = #"{"query":"with a mark","path":[],"zoom":1,"filters":{"onlyFavorites":false}}"#
    try storage.save(Data([0xEF, 0xBB, 0xBF]) + Data(json.utf8))
    let persisted = Persisted(storage: storage) { Scene() }
    #expect(persisted.restoreError == nil)
    #expect(persisted.model.query == "with a mark")
  }

  @Test func aKeyWrittenTwiceTakesItsLastValueEverywhere() throws {
    let directory = try TemporaryDirectory()
    let storage = storage(in: directory)
    try storage.save(
      Data(#"{"query":"first","path":[],"zoom":1,"filters":{"onlyFavorites":false},"query":"last"}"#.utf8))
    let persisted = Persisted(storage: storage) { Scene() }
    #expect(persisted.restoreError == nil)
    #expect(persisted.model.query == "last")  // restored…
    persisted.model.path = ["another property"]
    try persisted.flush()
    #expect(try storedState(storage) == SceneState(query: "last", path: ["another property"]))  // …and saved
  }

  @Test func aNumberNoDoubleHoldsIsASchemaMismatchNotCorruption() throws {
    let directory = try TemporaryDirectory()
    let storage = storage(in: directory)
    let stored = Data(#"{"query":"","path":[],"zoom":1e400,"filters":{"onlyFavorites":false}}"#.utf8)
    try storage.save(stored)
    let persisted = Persisted(storage: storage) { Scene() }
    guard case .schemaMismatch(_, let location) = persisted.restoreError else {
      Issue.record("expected a schema mismatch, got \(String(describing: persisted.restoreError))")
      return
    }
    #expect(try storage.quarantinedData(at: location) == stored)
  }

  @Test func theDefaultStateIsWrittenAtOnceWhateverThePolicy() async throws {
    let directory = try TemporaryDirectory()
    let storage = storage(in: directory)
    let persisted = Persisted(storage: storage, savePolicy: .debounce(seconds: 3600)) { Scene() }
    try await eventually(within: 30) { try storedState(storage) == SceneState(query: "", path: []) }
    persisted.model.query = "held by the debounce"
    #expect(try storedState(storage)?.query == "")
  }

  @Test func aNameOf240CharactersIsSavedRestoredAndMovedAside() throws {
    let directory = try TemporaryDirectory()
    let name = String(repeating: "n", count: 235) + ".json"
    let storage = storage(in: directory, named: name)
    do {
      let persisted = Persisted(storage: storage) { Scene() }
      persisted.model.query = "long"
      try persisted.flush()
    }
    #expect(Persisted(storage: storage) { Scene() }.model.query == "long")
    try storage.save(CorruptInputTests.garbage)
    let restored = Persisted(storage: storage) { Scene() }
    guard case .corrupt(_, let location) = restored.restoreError else {
      Issue.record("expected a corrupt value moved aside, got \(String(describing: restored.restoreError))")
      return
    }
    #expect(try storage.quarantinedData(at: location) == CorruptInputTests.garbage)
    // A name of the longest length the file system allows works too.
    let longest = JSONFileStorage(
      url: directory.url.appendingPathComponent(String(repeating: "m", count: 250) + ".json"))
    try longest.save(Data(#"{"query":"longest","path":[]}"#.utf8))
    #expect(try storedState(longest)?.query == "longest")
  }

  @Test func aSymbolicLinkIsFollowedAndStaysALink() async throws {
    let directory = try TemporaryDirectory()
    let elsewhere = directory.url.appendingPathComponent("elsewhere")
    try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: false)
    let target = elsewhere.appendingPathComponent("real.json")
    try Data(#"{"query":"through the link","path":[],"zoom":1,"filters":{"onlyFavorites":false}}"#.utf8)
      .write(to: target)
    let link = directory.url.appendingPathComponent("scene.json")
    try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "elsewhere/real.json")

    let persisted = Persisted(fileAt: link) { Scene() }
    #expect(persisted.model.query == "through the link")
    persisted.model.query = "saved through the link"
    try persisted.flush()
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "elsewhere/real.json")
    #expect(try storedState(JSONFileStorage(url: target))?.query == "saved through the link")

    // Another writer of the file the link leads to is seen through it.
    try Data(#"{"query":"written at the target","path":[],"zoom":1,"filters":{"onlyFavorites":false}}"#.utf8)
      .write(to: target)
    try await eventually { persisted.model.query == "written at the target" }
  }

  @Test func temporaryFilesOfAKilledWriterAreRemovedByTheNextUpdate() throws {
    let directory = try TemporaryDirectory()
    let storage = storage(in: directory)
    try storage.save(Data(#"{"query":"","path":[]}"#.utf8))
    // As a writer killed between writing its temporary file and renaming it leaves
    // them (this version's names, and an earlier version's).
    let abandoned = [".scene.json.k3x9a0qz.tmp", ".scene.json.12345678901234567.tmp"]
    let unrelated = [".scene.json.notes.tmp", "scene.json.backup", ".other.json.k3x9a0qz.tmp"]
    for name in abandoned + unrelated {
      try Data("{".utf8).write(to: directory.url.appendingPathComponent(name))
    }
    let persisted = Persisted(storage: JSONFileStorage(url: storage.url)) { Scene() }
    persisted.model.query = "after the crash"
    try persisted.flush()
    let names = Set(try FileManager.default.contentsOfDirectory(atPath: directory.url.path))
    #expect(names.isDisjoint(with: abandoned))
    #expect(names.isSuperset(of: unrelated))
  }

  #if os(Linux)
    @Test func aDirectoryThatMayNotBeWrittenReportsPermissionDenied() throws {
      let directory = try TemporaryDirectory()
      let readOnly = directory.url.appendingPathComponent("read-only")
      try FileManager.default.createDirectory(at: readOnly, withIntermediateDirectories: false)
      chmod(readOnly.path, 0o555)
      defer { chmod(readOnly.path, 0o755) }
      let storage = JSONFileStorage(url: readOnly.appendingPathComponent("scene.json"))
      let failure = withoutFilePrivileges { () -> (any Error)? in
        do {
          try storage.save(Data("{}".utf8))
          return nil
        } catch {
          return error
        }
      }
      #expect((failure as? POSIXFailure)?.code == EACCES, "\(String(describing: failure))")
    }
  #endif
}

#if os(Linux)
  /// Runs `body` on a thread of its own whose file accesses are checked as an
  /// unprivileged user's (`setfsuid`, which only affects that thread), so that
  /// permissions apply even when the tests run as root.
  func withoutFilePrivileges<Result: Sendable>(_ body: @escaping @Sendable () -> Result) -> Result {
    typealias SetFSUID = @convention(c) (UInt32) -> Int32
    let result = UnsafeSendableResult<Result>()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      let setfsuid = dlsym(nil, "setfsuid").map { unsafeBitCast($0, to: SetFSUID.self) }
      let privileged = getuid() == 0
      if privileged { _ = setfsuid?(65534) }  // nobody
      result.value = body()
      if privileged { _ = setfsuid?(0) }
      done.signal()
    }
    thread.start()
    done.wait()
    return result.value!
  }

  /// A result handed from the thread above to its waiting caller (written before the
  /// semaphore is signalled, read after).
  final class UnsafeSendableResult<Value>: @unchecked Sendable {
    var value: Value?
  }
#endif
