import Foundation
import Testing
import Tracking

/// A clamping wrapper, as a user might write one; its projected value is the range.
@propertyWrapper
struct Clamped: Codable, Sendable {
  private var value: Int
  let range: ClosedRange<Int>
  init(wrappedValue: Int, _ range: ClosedRange<Int>) {
    self.range = range
    self.value = min(max(wrappedValue, range.lowerBound), range.upperBound)
  }
  var wrappedValue: Int {
    get { value }
    set { value = min(max(newValue, range.lowerBound), range.upperBound) }
  }
  var projectedValue: ClosedRange<Int> { range }
}

/// A wrapper with no projected value, generic over its value.
@propertyWrapper
struct Trimmed<Value: StringProtocol & Sendable>: Codable, Sendable {
  private var value: String
  init(wrappedValue: String) { value = wrappedValue.trimmingCharacters(in: .whitespaces) }
  var wrappedValue: String {
    get { value }
    set { value = newValue.trimmingCharacters(in: .whitespaces) }
  }
}

/// A UserDefaults-like wrapper over `FakeDefaults`: the value lives in the store, and
/// the projected value is a handle on the entry (as `@AppStorage`'s is a binding). Its
/// setter is a plain (mutating) `set`: a `nonmutating set` would let writes bypass
/// `@Tracked` (see `Tracked`'s documentation).
@propertyWrapper
struct Stored<Value: Sendable>: Sendable {
  struct Entry: Sendable {
    let key: String
    let store: FakeDefaults
    var isSet: Bool { store.object(forKey: key) != nil }
    func reset() { store.set(nil, forKey: key) }
  }
  let entry: Entry
  let defaultValue: Value
  init(wrappedValue: Value, _ key: String, store: FakeDefaults) {
    entry = Entry(key: key, store: store)
    defaultValue = wrappedValue
  }
  var wrappedValue: Value {
    get { entry.store.object(forKey: entry.key) as? Value ?? defaultValue }
    set { entry.store.set(newValue, forKey: entry.key) }
  }
  var projectedValue: Entry { entry }
}

@Trackable final class Mixer: Codable, @unchecked Sendable {
  @Tracked @Clamped(0...10) var volume = 5
  @Tracked @Trimmed<String> var title = "  untitled  "
  var name = "mixer"
  init() {}
}

@Trackable final class StoredPreferences: @unchecked Sendable {
  @Tracked @Stored("volume", store: StoredPreferences.store) var volume = 0.5
  static let store = FakeDefaults()
  init() {}
}

@Suite("Property wrappers on tracked properties (@Tracked)")
struct TrackedWrapperTests {
  @Test func aWriteThroughTheWrapperNotifiesAndTheWrapperStillDecides() {
    let mixer = Mixer()
    let events = Events()
    withTracking { _ = mixer.volume } onChange: { events("volume") }
    mixer.volume = 42
    #expect(events.all == ["volume"])
    #expect(mixer.volume == 10)  // clamped by the inner wrapper
  }

  @Test func onlyTheWrittenPropertysReadersFire() {
    let mixer = Mixer()
    let events = Events()
    withTracking { _ = mixer.title } onChange: { events("title") }
    withTracking { _ = mixer.name } onChange: { events("name") }
    mixer.volume = 3
    #expect(events.all.isEmpty)
    mixer.title = "  mix  "
    #expect(events.all == ["title"])
    #expect(mixer.title == "mix")
  }

  @Test func inPlaceMutationNotifiesOnce() {
    let mixer = Mixer()
    let events = Events()
    withTracking { _ = mixer.volume } onChange: { events("volume") }
    mixer.volume += 1
    #expect(events.all == ["volume"])
    #expect(mixer.volume == 6)
  }

  @Test func theProjectionIsTheInnerWrapperWithItsOwnProjection() {
    let mixer = Mixer()
    #expect(mixer.$volume.projectedValue == 0...10)
    #expect(mixer.$volume.wrappedValue == 5)
  }

  @Test func aStoreBackedWrapperKeepsItsStorage() {
    let preferences = StoredPreferences()
    let events = Events()
    StoredPreferences.store.set(nil, forKey: "volume")
    withTracking { _ = preferences.volume } onChange: { events("volume") }
    preferences.volume = 0.8
    #expect(events.all == ["volume"])
    #expect(StoredPreferences.store.object(forKey: "volume") as? Double == 0.8)
    #expect(preferences.$volume.projectedValue.isSet)
    preferences.$volume.projectedValue.reset()
    #expect(preferences.volume == 0.5)
  }

  /// Every write notifies, an equal one too: the inner wrapper decides what is stored.
  @Test func anEqualWriteStillNotifies() {
    let mixer = Mixer()
    let events = Events()
    withTracking { _ = mixer.volume } onChange: { events("volume") }
    mixer.volume = 5
    #expect(events.all == ["volume"])
  }

  @Test func codableEncodesTheInnerWrapperUnderThePropertysName() throws {
    let mixer = Mixer()
    mixer.volume = 7
    let data = try JSONEncoder().encode(mixer)
    let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    #expect(Set(object?.keys.map { $0 } ?? []) == ["volume", "title", "name"])
    let decoded = try JSONDecoder().decode(Mixer.self, from: data)
    #expect(decoded.volume == 7)
    #expect(decoded.name == "mixer")
  }
}
