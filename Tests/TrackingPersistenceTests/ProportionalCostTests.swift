import Foundation
import Testing
import Tracking
import TrackingPersistence

/// A value that counts how often it is encoded and reflected (`Mirror`): the work a
/// save does on it, without timing anything.
///
/// Described without `Mirror` (`CustomDebugStringConvertible`): introspection, which
/// other suites switch on for the whole process while these tests run, describes a
/// changed property's value with `String(describing:)`, and that is not a walk the
/// persistence layer makes. (Described by reflection, one change to `items` made while
/// it was on counted 2 000 mirrors.)
struct Probe: Codable, CustomReflectable, CustomDebugStringConvertible, Equatable {
  static let counts = ProbeCounts()

  var value: Int

  init(_ value: Int) { self.value = value }

  init(from decoder: any Decoder) throws {
    value = try decoder.singleValueContainer().decode(Int.self)
  }

  func encode(to encoder: any Encoder) throws {
    Self.counts.add(encodes: 1)
    var container = encoder.singleValueContainer()
    try container.encode(value)
  }

  var debugDescription: String { "Probe(\(value))" }

  var customMirror: Mirror {
    Self.counts.add(mirrors: 1)
    return Mirror(self, children: [])
  }
}

final class ProbeCounts: @unchecked Sendable {
  private let lock = NSLock()
  private var counts = (encodes: 0, mirrors: 0)

  func add(encodes: Int = 0, mirrors: Int = 0) {
    lock.withLock {
      counts.encodes += encodes
      counts.mirrors += mirrors
    }
  }

  var encodes: Int { lock.withLock { counts.encodes } }
  var mirrors: Int { lock.withLock { counts.mirrors } }
}

/// A model with one large property and a small one.
@Trackable final class Catalog: Codable, ReloadableModel {
  var title = ""
  var items: [Probe] = (0..<1_000).map(Probe.init)

  func reload(from newer: Catalog) {
    title = newer.title
    items = newer.items
  }
}

/// What a change costs the model's actor is proportional to the change: a property
/// that did not change is neither encoded nor walked, and under a debounce the
/// changed property is encoded once per write, not once per change.
@MainActor
@Suite("Cost proportional to the change", .serialized)
struct ProportionalCostTests {
  @Test func changingASmallPropertyNeverEncodesNorWalksTheLargeOne() throws {
    let directory = try TemporaryDirectory()
    let persisted = Persisted(fileAt: directory.url.appendingPathComponent("catalog.json")) { Catalog() }
    try persisted.flush()
    let (encodes, mirrors) = (Probe.counts.encodes, Probe.counts.mirrors)

    for step in 0..<50 {
      persisted.model.title = "title \(step)"
      try persisted.flush()
    }
    #expect(Probe.counts.encodes == encodes)
    #expect(Probe.counts.mirrors == mirrors)
    #expect(persisted.saveCount >= 50)
  }

  @Test func underADebounceAThousandElementChangesAreOneEncodingOfTheArray() async throws {
    let directory = try TemporaryDirectory()
    let url = directory.url.appendingPathComponent("catalog.json")
    let persisted = Persisted(fileAt: url, savePolicy: .debounce(seconds: 3600)) { Catalog() }
    try persisted.flush()
    let (encodes, mirrors) = (Probe.counts.encodes, Probe.counts.mirrors)

    for step in 0..<1_000 {
      persisted.model.items[step % 10].value += 1
      await Task.yield()  // each change its own transaction
    }
    #expect(Probe.counts.encodes == encodes)  // nothing encoded while the debounce holds
    try persisted.flush()
    #expect(Probe.counts.encodes == encodes + 1_000)  // the array, once
    #expect(Probe.counts.mirrors == mirrors)
    let restored = try JSONDecoder().decode([String: [Int]].self, from: Data(contentsOf: url).filteringTitle())
    #expect(restored["items"]?.prefix(10).allSatisfy { $0 >= 100 } == true)
  }
}

extension Data {
  /// The stored catalog without its `title` (a string among the integer lists).
  fileprivate func filteringTitle() throws -> Data {
    var object = try JSONSerialization.jsonObject(with: self) as? [String: Any] ?? [:]
    object["title"] = nil
    return try JSONSerialization.data(withJSONObject: object)
  }
}
