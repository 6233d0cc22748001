import Foundation
@_spi(Testing) import Tracking

/// A row of a list: a plain value type, as an app's would be.
struct ListRow: Identifiable, Equatable, Hashable, Codable, Sendable {
  let id: Int
  var title: String
  var done = false
}

/// A model holding a tracked list and a tracked dictionary, as a class property.
@Trackable final class Inbox: @unchecked Sendable {
  var rows: TrackedList<ListRow> = []
  var scores: TrackedDictionary<String, Int> = [:]
  var name = "inbox"

  init(rows: Int = 0) {
    self.rows = TrackedList(uniqueElements: (0..<rows).map { ListRow(id: $0, title: "row \($0)") })
  }
}

/// Struct state holding a tracked list.
@TrackedState
struct Board {
  var cards: TrackedList<ListRow> = []
  var title = "board"
}

/// Struct state holding a tracked dictionary.
@TrackedState
struct Scoreboard {
  var scores: TrackedDictionary<String, Int> = [:]
  var title = "scores"
}

/// Counts how many times each label's callback ran.
final class RunCounts: @unchecked Sendable {
  private let lock = NSLock()
  private var counts: [String: Int] = [:]

  func hit(_ label: String) { lock.withLock { counts[label, default: 0] += 1 } }
  subscript(label: String) -> Int { lock.withLock { counts[label, default: 0] } }
  var total: Int { lock.withLock { counts.values.reduce(0, +) } }
  func reset() { lock.withLock { counts.removeAll() } }
}
