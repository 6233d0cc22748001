import Foundation
import Tracking
import TrackingPersistence

// Persistence: what saving adds to a change (issue 40, item 5). One element of a
// 10 000-element array property changes, one transaction per change (the producer
// yields after each, as an app's main actor returns to its run loop), on one actor.
//
// - plain column: the same `@Trackable` model, not persisted (the change and the yield).
// - ours column: persisted to a JSON file with `.debounce(1 s)`: what each change of a
//   burst costs on the model's actor (the change marks the property). The burst's one
//   save (the array encoded, the file replaced) comes after the timed changes, when the
//   debounce settles; it is the next row's work, so it is not timed here. (Until
//   2026-11-26 the flush was timed in this row, spread over its 2 000 changes, which
//   made the figure depend on the burst's length.)
// - the `.immediate` row: a save after every transaction (the array encoded and the
//   file replaced each time): the cost of one save, reported beside the same plain
//   figure.

/// The persisted model: a title and a list of 10 000 numbers.
@Trackable public final class PersistedList: Codable {
  public var title = ""
  public var items: [Int] = Array(0..<10_000)
  public init() {}
}

extension Operation {
  static let persistedElementChange = Operation(
    "persist.element-of-10k",
    "change 1 element of a 10 000-element array, 1 transaction per change (yield between); plain: not persisted; ours: Persisted to a JSON file, .debounce(1 s), per change of a burst (the burst's one save: the .immediate row)",
    iterations: 2_000, quick: 20,
    .time([
      .plain: { n, w in persistedChanges(n, w, policy: nil, timesTheSave: false) },
      .ours: { n, w in persistedChanges(n, w, policy: .debounce(seconds: 1), timesTheSave: false) },
    ]))

  static let persistedElementChangeImmediate = Operation(
    "persist.element-of-10k.immediate",
    "the row above with .immediate: the array encoded and the file replaced after every change",
    iterations: 100, quick: 5, baseline: "persist.element-of-10k",
    .time([.ours: { n, w in persistedChanges(n, w, policy: .immediate, timesTheSave: true) }]))

  /// The persistence rows, registered by `compare`.
  public static let persistence = [persistedElementChange, persistedElementChangeImmediate]
}

/// Times `n` element changes of a persisted (or, without a policy, a plain) list; the
/// final flush too if `timesTheSave`. Either way the saved file is checked afterwards.
private func persistedChanges(_ n: Int, _ watch: Stopwatch, policy: SavePolicy?, timesTheSave: Bool) {
  let box = Handoff(value: watch)
  runBlocking { await persistedRun(opaque(n), box.value, policy: policy, timesTheSave: timesTheSave) }
}

@BenchmarkActor private func persistedRun(_ n: Int, _ watch: Stopwatch, policy: SavePolicy?, timesTheSave: Bool)
  async
{
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("tracking-benchmark-\(UUID().uuidString)")
  try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }
  let persisted = policy.map { policy in
    Persisted(fileAt: directory.appendingPathComponent("list.json"), savePolicy: policy) { PersistedList() }
  }
  let model = persisted?.model ?? PersistedList()
  try! persisted?.flush()  // the defaults: not timed
  await Task.yield()

  watch.start()
  for i in 0..<n {
    model.items[(i &* 7_919) % 10_000] = i
    await Task.yield()
  }
  if !timesTheSave { watch.stop() }
  try! persisted?.flush()
  if timesTheSave { watch.stop() }

  if let persisted {
    precondition(!persisted.hasUnsavedChanges && persisted.status == .saved, "not saved: \(persisted.status)")
    let stored = try! JSONDecoder().decode(
      PersistedList.self, from: Data(contentsOf: directory.appendingPathComponent("list.json")))
    precondition(stored.items == model.items, "the stored list differs from the model")
  }
  consume(model)
}
