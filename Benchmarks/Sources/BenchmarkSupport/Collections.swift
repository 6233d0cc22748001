import Observation
import Tracking

// Fine-grained collections (issue 37): a list of 10 000 rows, one observer per row
// that reads its row, and one list observer that reads the IDs — a SwiftUI list with
// its rows. Ours keeps the rows in a `TrackedList` property of a `@Trackable` class
// (`observe` per row); Apple keeps them in an array property of an `@Observable`
// class (a re-arming `withObservationTracking` per row, which every edit re-runs);
// plain is the same array edit with no observers. The `.objects` row is the usual
// workaround, one tracked object per row; its ours column is the baseline the list's
// edit is held to (within 2×).

public struct BenchRow: Identifiable, Equatable, Sendable {
  public let id: Int
  public var title: Int
  public init(id: Int, title: Int) {
    self.id = id
    self.title = title
  }
}

@Trackable public final class OursRows {
  public var rows: TrackedList<BenchRow>
  public init(count: Int) { rows = TrackedList(uniqueElements: (0..<count).map { BenchRow(id: $0, title: 0) }) }
}

@Observable public final class AppleRows {
  public var rows: [BenchRow]
  public init(count: Int) { rows = (0..<count).map { BenchRow(id: $0, title: 0) } }
}

public final class PlainRows {
  public var rows: [BenchRow]
  public init(count: Int) { rows = (0..<count).map { BenchRow(id: $0, title: 0) } }
}

@Trackable public final class OursRowObject {
  public let id: Int
  public var title = 0
  public init(id: Int) { self.id = id }
}

@Observable public final class AppleRowObject {
  public let id: Int
  public var title = 0
  public init(id: Int) { self.id = id }
}

/// Rows in the list.
let listSize = 10_000

/// A re-arming Apple tracking: runs `read` now and after every change (from inside
/// `onChange`, as callback observation over Apple's one-shot tracking must).
final class AppleRerun: @unchecked Sendable {
  let read: () -> Void
  init(_ read: @escaping () -> Void) {
    self.read = read
    run()
  }
  func run() {
    withObservationTracking { read() } onChange: { [weak self] in
      fire()
      self?.run()
    }
  }
}

/// The row that the `i`th edit changes: spread over the list.
@inline(__always)
func editedRow(_ i: Int) -> Int { (i &* 7_919) % listSize }

/// Observers of one list: one per row, reading its row's title, plus one reading the
/// IDs. Returns what keeps them alive.
func oursListObservers(_ model: OursRows) -> [TrackingToken] {
  nonisolated(unsafe) let model = model
  var tokens = [observe { consume(model.rows.ids.count) }]
  tokens.reserveCapacity(listSize + 1)
  for id in 0..<listSize {
    tokens.append(observe { consume(model.rows[id: id]?.title) ; fire() })
  }
  return tokens
}

func appleListObservers(_ model: AppleRows) -> [AppleRerun] {
  nonisolated(unsafe) let model = model
  var observers = [AppleRerun { consume(model.rows.map(\.id).count) }]
  for id in 0..<listSize {
    observers.append(AppleRerun { consume(model.rows[id].title) })
  }
  return observers
}

/// Times `n` edits after `setup`; checks that each edit re-ran `perEdit` observers.
@inline(__always)
func collectionLoop<M, K>(
  _ n: Int, _ watch: Stopwatch, perEdit: Int?, _ make: () -> M, observers: (M) -> K, _ edit: (M, Int) -> Void
) {
  let n = opaque(n)
  let model = opaque(make())
  let kept = observers(model)
  fires = 0
  watch.start()
  for i in 0..<n { edit(model, i) }
  watch.stop()
  if let perEdit { precondition(fires == n * perEdit, "expected \(perEdit) re-runs per edit, got \(fires) for \(n)") }
  consume(kept)
}

extension Operation {
  static let collectionEditList = Operation(
    "collection.edit.list",
    "10 000 rows, an observer per row + 1 of the IDs: edit one row's field (ours TrackedList: its observer re-runs; Apple [struct]: all 10 001 re-run)",
    iterations: 200, quick: 2,
    .time([
      .plain: { n, w in
        collectionLoop(n, w, perEdit: nil, { PlainRows(count: listSize) }, observers: { _ in 0 }) { model, i in
          model.rows[editedRow(i)].title &+= 1
        }
      },
      .apple: { n, w in
        collectionLoop(n, w, perEdit: listSize + 1, { AppleRows(count: listSize) }, observers: appleListObservers) {
          model, i in model.rows[editedRow(i)].title &+= 1
        }
      },
      .ours: { n, w in
        collectionLoop(n, w, perEdit: 1, { OursRows(count: listSize) }, observers: oursListObservers) { model, i in
          model.rows[id: editedRow(i)]?.title &+= 1
        }
      },
    ]))

  static let collectionEditObjects = Operation(
    "collection.edit.objects",
    "the same edit with one tracked object per row (the usual workaround): an observer per object, write one object's field",
    iterations: 200, quick: 2,
    .time([
      .apple: { n, w in
        collectionLoop(n, w, perEdit: 1, { (0..<listSize).map(AppleRowObject.init(id:)) }) { rows in
          rows.map { row in AppleRerun { consume(row.title) } }
        } _: { rows, i in rows[editedRow(i)].title &+= 1 }
      },
      .ours: { n, w in
        collectionLoop(n, w, perEdit: 1, { (0..<listSize).map(OursRowObject.init(id:)) }) { rows in
          rows.map { row in
            nonisolated(unsafe) let row = row
            return observe { consume(row.title); fire() }
          }
        } _: { rows, i in rows[editedRow(i)].title &+= 1 }
      },
    ]))

  static let collectionAppend = Operation(
    "collection.append.list",
    "10 000 rows, observers as in collection.edit.list: append a row (ours: the IDs' observer re-runs, no row's; Apple: all re-run)",
    iterations: 200, quick: 2,
    .time([
      .plain: { n, w in
        collectionLoop(n, w, perEdit: nil, { PlainRows(count: listSize) }, observers: { _ in 0 }) { model, i in
          model.rows.append(BenchRow(id: listSize + i, title: 0))
        }
      },
      .apple: { n, w in
        collectionLoop(n, w, perEdit: listSize + 1, { AppleRows(count: listSize) }, observers: appleListObservers) {
          model, i in model.rows.append(BenchRow(id: listSize + i, title: 0))
        }
      },
      .ours: { n, w in
        collectionLoop(n, w, perEdit: 0, { OursRows(count: listSize) }, observers: oursListObservers) { model, i in
          model.rows.append(BenchRow(id: listSize + i, title: 0))
        }
      },
    ]))

  static let collectionMemory = Operation(
    "collection.memory.row",
    "heap bytes per row of a 10 000-row list, no observers (plain: [struct]; Apple: @Observable object per row; ours: TrackedList row)",
    iterations: 10_000, quick: 1_000,
    .value(
      unit: "B",
      [
        .plain: { n in heapGrowth(1) { (0..<n).map { BenchRow(id: $0, title: 0) } } / Double(n) },
        .apple: { n in heapGrowth(1) { (0..<n).map(AppleRowObject.init(id:)) } / Double(n) },
        .ours: { n in heapGrowth(1) { TrackedList(uniqueElements: (0..<n).map { BenchRow(id: $0, title: 0) }) } / Double(n) },
      ]))

  static let collections: [Operation] = [
    collectionEditList, collectionEditObjects, collectionAppend, collectionMemory,
  ]
}
