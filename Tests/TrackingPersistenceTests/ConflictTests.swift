import Foundation
import Testing
import Tracking
import TrackingPersistence

/// A model two writers count on.
@Trackable final class Tally: Codable, ReloadableModel {
  var visits = 0
  var note = ""

  func reload(from newer: Tally) {
    visits = newer.visits
    note = newer.note
  }
}

/// The resolver a counter needs: both writers' increments since the base add up.
let addingIncrements: ConflictResolver = { conflict in
  guard conflict.key == "visits", let visits = try? conflict.decode(Int.self) else { return .mine }
  return (try? .encoding((visits.stored ?? 0) + (visits.mine ?? 0) - (visits.base ?? 0))) ?? .mine
}

/// The conflict rule: writers of different properties never lose each other's writes;
/// of one property, the write that commits last wins — by the storage's commit order,
/// never by a clock — unless the model's resolver decides otherwise.
@MainActor
@Suite("Conflicts")
struct ConflictTests {
  @Test(arguments: Backend.allCases)
  func theWriteThatCommitsLastWinsNotTheChangeMadeLast(_ backend: Backend) throws {
    let directory = try TemporaryDirectory()
    let first = Persisted(storage: try backend.storage(in: directory.url), savePolicy: .debounce(seconds: 3600)) {
      Tally()
    }
    let second = Persisted(storage: try backend.storage(in: directory.url), savePolicy: .debounce(seconds: 3600)) {
      Tally()
    }
    try first.synchronize()
    try second.synchronize()
    first.model.note = "changed first, committed last"
    second.model.note = "changed last, committed first"
    second.model.visits = 7  // a property only one of them changed: kept
    try second.flush()
    try first.flush()
    try first.synchronize()
    try second.synchronize()
    for tally in [first.model, second.model] {
      #expect(tally.note == "changed first, committed last")
      #expect(tally.visits == 7)
    }
  }

  @Test(arguments: Backend.allCases)
  func aResolverDecidesWhenBothChangedTheSameProperty(_ backend: Backend) throws {
    let directory = try TemporaryDirectory()
    let make = { () throws -> Persisted<Tally> in
      Persisted(
        storage: try backend.storage(in: directory.url), savePolicy: .debounce(seconds: 3600),
        resolvingConflicts: addingIncrements
      ) { Tally() }
    }
    let first = try make()
    let second = try make()
    try first.synchronize()
    try second.synchronize()
    first.model.visits += 3
    second.model.visits += 5
    try first.flush()
    try second.flush()  // base 0, stored 3, mine 5: 8
    try first.synchronize()
    #expect(first.model.visits == 8)
    #expect(second.model.visits == 8)
  }

  @Test func aResolverSeesTheThreeValues() {
    let stored = StoredConflictProbe()
    let conflict = PropertyConflict(
      key: "visits", base: Data("1".utf8), mine: Data("4".utf8), stored: Data("2".utf8))
    stored.record(addingIncrements(conflict))
    #expect(stored.resolutions == [.json(Data("5".utf8))])
    let other = PropertyConflict(key: "note", base: nil, mine: Data(#""a""#.utf8), stored: Data(#""b""#.utf8))
    #expect(addingIncrements(other) == .mine)
  }

  final class StoredConflictProbe {
    var resolutions: [ConflictResolution] = []
    func record(_ resolution: ConflictResolution) { resolutions.append(resolution) }
  }
}

#if os(Linux)
  /// Processes counting on one model at once: with the adding resolver, no increment is
  /// lost, and every process ends with the stored total.
  @Suite("Conflicts between processes", .serialized)
  struct ConflictProcessTests {
    static let variable = "TRACKING_PERSISTENCE_COUNTING_WRITER"

    /// A counting process's work: `<backend>|<directory>|<increments>`.
    @MainActor @Test func persistenceCountingWriterEntry() async throws {
      guard let spec = ProcessInfo.processInfo.environment[Self.variable] else { return }
      let parts = spec.split(separator: "|").map(String.init)
      let backend = try #require(Backend(rawValue: parts[0]))
      let increments = try #require(Int(parts[2]))
      let storage = try backend.storage(in: URL(fileURLWithPath: parts[1]))
      let persisted = Persisted(
        storage: storage, resolvingConflicts: addingIncrements, onError: { tell("error", "\($0)") }
      ) { Tally() }
      let giveUp = Date().addingTimeInterval(120)
      for step in 1...increments {
        persisted.model.visits += 1
        if step % 5 == 0 || step == increments {
          while (try? persisted.flush()) == nil {
            guard Date() < giveUp else { return }
            try await Task.sleep(for: .milliseconds(20))
          }
        }
        try await Task.sleep(for: .microseconds(Int.random(in: 100...2000)))  // let the others in
      }
      tell("done", "\(increments)")
      // Until every process is done, the total keeps growing: wait for the stored total.
      let total = try #require(Int(parts[3]))
      while persisted.model.visits != total {
        guard Date() < giveUp else { break }
        try? persisted.synchronize()
        try await Task.sleep(for: .milliseconds(5))
      }
      tell("visits", "\(persisted.model.visits)")
    }

    @Test(.timeLimit(.minutes(2)), arguments: Backend.allCases)
    func incrementsFromSeveralProcessesAllCount(_ backend: Backend) async throws {
      let directory = try TemporaryDirectory()
      let (processes, increments) = (3, 40)
      let writers = try (0..<processes).map { _ in
        try ChildProcess(
          entry: "persistenceCountingWriterEntry", variable: Self.variable,
          value: "\(backend.rawValue)|\(directory.url.path)|\(increments)|\(processes * increments)")
      }
      defer { writers.forEach { $0.kill() } }
      for writer in writers {
        #expect(try await writer.waitForExit(within: 100), "a writer did not exit")
      }
      let storage = try backend.storage(in: directory.url)
      let stored = try JSONDecoder().decode([String: AnyCodableScalar].self, from: try #require(try storage.load()))
      #expect(stored["visits"] == .int(processes * increments))
      for writer in writers {
        #expect(writer.output.values("error").isEmpty, "\(writer.output.values("error"))")
        #expect(writer.output.values("visits") == ["\(processes * increments)"])
      }
    }
  }

  /// A JSON scalar, for reading a stored object without its model.
  enum AnyCodableScalar: Decodable, Equatable {
    case int(Int), string(String), other

    init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      if let value = try? container.decode(Int.self) {
        self = .int(value)
      } else if let value = try? container.decode(String.self) {
        self = .string(value)
      } else {
        self = .other
      }
    }
  }
#endif
