import Foundation

/// A thread-safe, append-only list of events that scenarios write and tests compare.
final class EventLog: @unchecked Sendable {
  private let lock = NSLock()
  private var storage: [String] = []

  func callAsFunction(_ event: String) {
    lock.lock()
    storage.append(event)
    lock.unlock()
  }

  var events: [String] {
    lock.lock()
    defer { lock.unlock() }
    return storage
  }
}

/// A reference type used to check the same-object rule of the generated setters.
final class Box: @unchecked Sendable {
  let name: String
  init(_ name: String) { self.name = name }
}
