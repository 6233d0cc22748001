import Tracking

/// A tiny key/value store standing in for `UserDefaults` (which works the same way on
/// Apple systems: conform a value type to `ExternalStorage`).
final class KeyValueStore: @unchecked Sendable {
  static let shared = KeyValueStore()
  private var values: [String: Any] = [:]
  func value(forKey key: String) -> Any? { values[key] }
  func set(_ value: Any, forKey key: String) { values[key] = value }
}

struct StoredValue<Value>: ExternalStorage {
  let key: String
  let defaultValue: Value
  func load() -> Value { KeyValueStore.shared.value(forKey: key) as? Value ?? defaultValue }
  func store(_ newValue: Value) { KeyValueStore.shared.set(newValue, forKey: key) }
}

@Trackable final class AppSettings: @unchecked Sendable {
  @TrackedExternally(StoredValue(key: "volume", defaultValue: 0.5))
  var volume: Double
}

enum ExternalStorageChapter {
  static func run() {
    Narrator.chapter("6. A tracked property over external storage")
    let settings = AppSettings()
    withTracking { _ = settings.volume } didSet: { _ in
      Narrator.say("volume changed to \(settings.volume)")
    }
    settings.volume = 0.8
    let stored = KeyValueStore.shared.value(forKey: "volume") as? Double ?? -1
    Narrator.say("the store holds \(stored); a new object reads \(AppSettings().volume)")
  }
}
