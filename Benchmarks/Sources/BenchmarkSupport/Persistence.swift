import Foundation
import Tracking
import TrackingPersistence

// Persistence: what saving adds to a change (issue 40, item 5). One element of a
// 10 000-element array property changes, one transaction per change (the producer
// yields after each, as an app's main actor returns to its run loop), on one actor.
//
// - plain column: the same `@Trackable` model, not persisted (the change and the yield).
// - ours column: persisted to a JSON file with `.debounce(1 s)`: each change marks the
//   property; the array is encoded once, by the final flush, which is timed too (the
//   one write of the burst, spread over its changes).
// - the `.immediate` row: a write after every transaction (the array encoded and the
//   file replaced each time), reported beside the same plain figure.

/// The persisted model: a title and a list of 10 000 numbers.
@Trackable public final class PersistedList: Codable {
  public var title = ""
  public var items: [Int] = Array(0..<10_000)
  public init() {}
}

extension Operation {
  static let persistedElementChange = Operation(
    "persist.element-of-10k",
    "change 1 element of a 10 000-element array, 1 transaction per change (yield between); plain: not persisted; ours: Persisted to a JSON file, .debounce(1 s), the final flush included",
    iterations: 2_000, quick: 20,
    .time([
      .plain: { n, w in persistedChanges(n, w, policy: nil) },
      .ours: { n, w in persistedChanges(n, w, policy: .debounce(seconds: 1)) },
    ]))

  static let persistedElementChangeImmediate = Operation(
    "persist.element-of-10k.immediate",
    "the row above with .immediate: the array encoded and the file replaced after every change",
    iterations: 100, quick: 5, baseline: "persist.element-of-10k",
    .time([.ours: { n, w in persistedChanges(n, w, policy: .immediate) }]))

  /// The persistence rows, registered by `compare`.
  public static let persistence = [persistedElementChange, persistedElementChangeImmediate]
}

/// Times `n` element changes of a persisted (or, without a policy, a plain) list.
private func persistedChanges(_ n: Int, _ watch: Stopwatch, policy: SavePolicy?) {
  let box = Handoff(value: watch)
  runBlocking { await persistedRun(opaque(n), box.value, policy: policy) }
}

@BenchmarkActor private func persistedRun(_ n: Int, _ watch: Stopwatch, policy: SavePolicy?) async {
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
  try! persisted?.flush()
  watch.stop()

  if let persisted {
    precondition(!persisted.hasUnsavedChanges && persisted.status == .saved, "not saved: \(persisted.status)")
    let stored = try! JSONDecoder().decode(
      PersistedList.self, from: Data(contentsOf: directory.appendingPathComponent("list.json")))
    precondition(stored.items == model.items, "the stored list differs from the model")
  }
  consume(model)
}
