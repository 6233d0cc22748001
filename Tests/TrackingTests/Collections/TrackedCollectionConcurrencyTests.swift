import Foundation
import Testing
@_spi(Testing) import Tracking

@Suite("Tracked collections under contention")
struct TrackedCollectionConcurrencyTests {
  /// ListRow observers installed and run on several threads while one thread edits rows:
  /// every edit of a row re-runs that row's observer with the new value, and copies
  /// mutated on other threads meanwhile notify no one.
  @Test func rowReadersOnManyThreadsSeeEveryEditOfTheirRowOnly() async {
    let rows = 64
    let edits = 20
    let inbox = Inbox(rows: rows)
    let lastSeen = Locked<[Int: String]>([:])
    let runs = RunCounts()
    // Observers start on four threads, each for a quarter of the rows.
    let tokens = await withTaskGroup(of: [TrackingToken].self) { group in
      for quarter in 0..<4 {
        group.addTask {
          (quarter * rows / 4..<(quarter + 1) * rows / 4).map { id in
            observe {
              let title = inbox.rows[id: id]?.title ?? "-"
              lastSeen.withLock { $0[id] = title }
              runs.hit("row \(id)")
            }
          }
        }
      }
      return await group.reduce(into: []) { $0 += $1 }
    }
    runs.reset()
    let snapshot = inbox.rows
    await withTaskGroup(of: Void.self) { group in
      group.addTask {
        // Edits: on one thread, as a class property is mutated from one isolation.
        for round in 0..<edits {
          for id in stride(from: 0, to: rows, by: 2) { inbox.rows[id: id]?.title = "\(id)/\(round)" }
        }
      }
      for _ in 0..<2 {
        group.addTask {
          // Copies mutated elsewhere: independent values, heard by no one.
          var copy = snapshot
          for round in 0..<edits { copy[id: 1]?.title = "copy \(round)"; copy.append(ListRow(id: rows + round, title: "x")) }
          #expect(copy.count == rows + edits)
        }
      }
    }
    for id in 0..<rows {
      #expect(runs["row \(id)"] == (id.isMultiple(of: 2) ? edits : 0), "row \(id)")
      if id.isMultiple(of: 2) { #expect(lastSeen.withLock { $0[id] } == "\(id)/\(edits - 1)") }
    }
    #expect(snapshot[id: 0]?.title == "row 0")
    _ = tokens
  }
}
