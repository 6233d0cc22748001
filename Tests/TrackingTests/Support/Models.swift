import Foundation
@_spi(Testing) import Tracking

@Trackable final class Counter: @unchecked Sendable {
  var count = 0
  var label = "counter"
  var history: [Int] = []
}

@Trackable final class Pair<Value: Sendable>: @unchecked Sendable {
  var first: Value
  var second: Value
  init(_ first: Value, _ second: Value) {
    self.first = first
    self.second = second
  }
}

@Trackable public final class AccessLevels: @unchecked Sendable {
  public var visible = 1
  public private(set) var readOnlyOutside = 2
  internal var normal = 3
  private var hidden = 4
  public init() {}
  public func bumpHidden() { hidden += 1 }
  public var hiddenValue: Int { hidden }
  public func setReadOnly(_ value: Int) { readOnlyOutside = value }
}

@Trackable final class Settings: Codable, @unchecked Sendable {
  var query = ""
  var path: [String] = []
  @TrackingIgnored var sessionCount = 0
  init() {}
}

/// A key/value store standing in for `UserDefaults`, so tests do not touch the
/// user's real defaults.
final class FakeDefaults: @unchecked Sendable {
  private let lock = NSLock()
  private var values: [String: Any] = [:]
  private var writeCounts: [String: Int] = [:]
  func object(forKey key: String) -> Any? { lock.withLock { values[key] } }
  func writes(forKey key: String) -> Int { lock.withLock { writeCounts[key, default: 0] } }
  func set(_ value: Any?, forKey key: String) {
    lock.withLock {
      values[key] = value
      writeCounts[key, default: 0] += 1
    }
  }
}

/// The documented way to back a tracked property by a defaults store.
struct DefaultsValue<Value>: ExternalStorage {
  let store: FakeDefaults
  let key: String
  let defaultValue: Value
  func load() -> Value { store.object(forKey: key) as? Value ?? defaultValue }
  func store(_ newValue: Value) { store.set(newValue, forKey: key) }
}

@Trackable final class Preferences: @unchecked Sendable {
  @TrackingIgnored let defaults: FakeDefaults
  @TrackedExternally(DefaultsValue(store: sharedDefaults, key: "volume", defaultValue: 0.5))
  var volume: Double
  @TrackedExternally(DefaultsValue(store: sharedDefaults, key: "brightness", defaultValue: 1.0))
  var brightness: Double
  var theme = "light"
  init(defaults: FakeDefaults) { self.defaults = defaults }
}

let sharedDefaults = FakeDefaults()

/// A property written by hand through the generated `access`/`withMutation` members,
/// the way one is written for Apple's macro.
@Trackable final class HandWritten: @unchecked Sendable {
  @TrackingIgnored private var storage = 0
  var manual: Int {
    get {
      access(keyPath: \.manual)
      return storage
    }
    set {
      withMutation(keyPath: \.manual) { storage = newValue }
    }
  }
}

@MainActor @Trackable final class MainActorModel {
  var title = "main"
}
