import Foundation
import Testing
@_spi(Testing) import Tracking
import TrackingPersistence

@Trackable final class Scene: Codable {
  var query = ""
  var path: [String] = []
  var zoom = 1.0
  var filters = Filters()
}

@Trackable final class Filters: Codable {
  var onlyFavorites = false
}

// Hand-written, as ReloadableModel asks (see its documentation).
extension Scene: ReloadableModel {
  func reload(from newer: Scene) {
    query = newer.query
    path = newer.path
    zoom = newer.zoom
    filters.reload(from: newer.filters)
  }
}

extension Filters: ReloadableModel {
  func reload(from newer: Filters) {
    onlyFavorites = newer.onlyFavorites
  }
}

/// The part of a scene the tests compare.
struct SceneState: Codable, Equatable {
  var query: String
  var path: [String]
}

/// A storage backend the tests run against.
enum Backend: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case file
  /// The JSON file, with changes found by polling rather than file-system events.
  case filePolling
  #if SQLite
    case sqlite
  #endif

  var testDescription: String { rawValue }

  /// One of each kind of storage (the file once).
  static var allCases: [Backend] {
    #if SQLite
      [.file, .sqlite]
    #else
      [.file]
    #endif
  }

  /// Every way of noticing other writers' changes: file events, file polling, SQLite.
  static var changeDetections: [Backend] {
    #if SQLite
      [.file, .filePolling, .sqlite]
    #else
      [.file, .filePolling]
    #endif
  }

  /// A fresh storage of this kind in `directory`.
  func storage(in directory: URL) throws -> any SharedPersistenceStorage {
    switch self {
    case .file: JSONFileStorage(url: directory.appendingPathComponent("scene.json"))
    case .filePolling:
      JSONFileStorage(url: directory.appendingPathComponent("scene.json"), changeDetection: .polling(seconds: 0.02))
    #if SQLite
      case .sqlite:
        try SQLiteStorage(
          path: directory.appendingPathComponent("scene.sqlite").path, key: "scene", changePollingInterval: 0.02)
    #endif
    }
  }
}

/// A directory removed when the value goes away.
final class TemporaryDirectory {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("tracking-persistence-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: url) }
}

/// What a storage holds, decoded as a scene (`nil` when empty).
func storedState(_ storage: any PersistenceStorage) throws -> SceneState? {
  guard let data = try storage.load() else { return nil }
  return try JSONDecoder().decode(SceneState.self, from: data)
}

/// Waits, suspending, until `condition` holds; records an issue after `seconds`.
///
/// The deadline only bounds a failing test: it is not a timing assertion, and it is
/// generous because the suite also runs under ThreadSanitizer beside stress tests that
/// keep both cores busy (a 10 s deadline was missed there once).
@MainActor func eventually(
  within seconds: Double = 120, sourceLocation: SourceLocation = #_sourceLocation,
  _ condition: () throws -> Bool
) async throws {
  let deadline = Date().addingTimeInterval(seconds)
  while try !condition() {
    guard Date() < deadline else {
      Issue.record("condition not met within \(seconds) s", sourceLocation: sourceLocation)
      return
    }
    try await Task.sleep(for: .milliseconds(1))
  }
}

/// Counts the changes of what an observation reads (the first run is not a change).
final class ChangeCounter: @unchecked Sendable {
  private let lock = NSLock()
  private var runs = 0
  private var token: TrackingToken?

  /// Starts counting changes of what `read` reads of `model`. (The observation runs
  /// synchronously on the mutating thread, here the main actor: the unchecked box
  /// never crosses threads.)
  @MainActor init<Model: AnyObject>(_ model: Model, _ read: @escaping (Model) -> Void) {
    let box = UncheckedSendable((model, read))
    token = observe { [self] in
      box.value.1(box.value.0)
      lock.withLock { runs += 1 }
    }
  }

  var changes: Int { lock.withLock { runs - 1 } }
}

/// Collects reported errors across threads.
final class ErrorLog: @unchecked Sendable {
  private let lock = NSLock()
  private var storage: [PersistenceError] = []

  var errors: [PersistenceError] { lock.withLock { storage } }
  var report: @Sendable (PersistenceError) -> Void { { error in self.lock.withLock { self.storage.append(error) } } }
}

/// A storage that fails on demand, as a full disk or an unreadable volume would.
final class FaultyStorage: PersistenceStorage, @unchecked Sendable {
  struct Fault: Error, Equatable {}

  let base: any PersistenceStorage
  private let lock = NSLock()
  private var failWrites = false
  private var failReads = false
  /// Reads that fail (with `readError`) before reads succeed again.
  private var failingReads = 0
  private let readError: any Error
  private var attemptedWrites = 0
  private var attemptedReads = 0

  init(
    _ base: any PersistenceStorage, failWrites: Bool = false, failReads: Bool = false, failingReads: Int = 0,
    readError: any Error = Fault()
  ) {
    self.base = base
    self.failWrites = failWrites
    self.failReads = failReads
    self.failingReads = failingReads
    self.readError = readError
  }

  var readAttempts: Int { lock.withLock { attemptedReads } }

  var isFailingReads: Bool {
    get { lock.withLock { failReads } }
    set { lock.withLock { failReads = newValue } }
  }

  var isFailingWrites: Bool {
    get { lock.withLock { failWrites } }
    set { lock.withLock { failWrites = newValue } }
  }

  var writeAttempts: Int { lock.withLock { attemptedWrites } }

  func load() throws -> Data? {
    let fail = lock.withLock { () -> Bool in
      attemptedReads += 1
      if failingReads > 0 {
        failingReads -= 1
        return true
      }
      return failReads
    }
    if fail { throw readError }
    return try base.load()
  }

  func save(_ data: Data) throws {
    let fail = lock.withLock { () -> Bool in
      attemptedWrites += 1
      return failWrites
    }
    if fail { throw Fault() }
    try base.save(data)
  }

  func quarantine(reason: String) throws -> QuarantineLocation? { try base.quarantine(reason: reason) }
  func quarantinedData(at location: QuarantineLocation) throws -> Data? { try base.quarantinedData(at: location) }
}
