  import Foundation
  import Tracking
  import TrackingPersistence

  /// The scene a search screen restores at launch: a query and a navigation path.
  /// (Used on the main actor only; not `@MainActor` itself, so `Codable` is synthesized.)
  @Trackable final class SavedScene: Codable {
    var query = ""
    var path: [String] = []
  }

  /// Reloading in place: what another process stores reaches this model's observers.
  extension SavedScene: ReloadableModel {
    func reload(from newer: SavedScene) {
      query = newer.query
      path = newer.path
    }
  }

  /// Persistence: the scene is saved whenever it changes, restored on the next run, and
  /// kept in step with another writer of the same file.
  @MainActor
  enum PersistenceChapter {
    static func run() async {
      Narrator.chapter("Persistence: save on change, restore on launch (run the tour twice), share a file")
      let file = FileManager.default.temporaryDirectory.appendingPathComponent("tracking-tour-scene.json")
      let persisted = Persisted(
        fileAt: file,
        onError: { error in print("   persistence error: \(error)") }
      ) { SavedScene() }
      let scene = persisted.model
      if scene.query.isEmpty && scene.path.isEmpty {
        Narrator.say("nothing saved yet at \(file.path): starting from defaults (written at once)")
      } else {
        Narrator.say("restored from the previous run: query \"\(scene.query)\", path \(scene.path)")
      }

      let run = scene.path.count + 1
      scene.query = "tea, run \(run)"
      scene.path.append("results \(run)")
      Narrator.say("changed the scene (one transaction): query \"\(scene.query)\", path \(scene.path)")
      Narrator.say("status: \(persisted.status) (an observable value: restoring, saved, saving, failed, disabled)")
      // Saved as soon as the main actor is free: no flush needed, no background event.
      for _ in 0..<1000 where persisted.status != .saved || persisted.saveCount == 0 {
        try? await Task.sleep(for: .milliseconds(1))
      }
      Narrator.say(
        "saved on change: \(persisted.saveCount) write(s) to \(file.lastPathComponent); status: \(persisted.status)")

      await shareTheFile(file, with: persisted)

      do {
        // What an app does at shutdown: the latest state, now. It throws whenever the
        // changes can't be saved (an unreadable file, a lock held past the timeout…).
        try persisted.flush()
        Narrator.say("flush at shutdown: \(persisted.saveCount) write(s) in total")
      } catch {
        Narrator.say("flush failed: \(error)")
      }
      Narrator.say("run the tour again to see this state restored")
    }

    /// A second writer of the same file — in an app, another process (a widget, a
    /// command-line tool) — changes the query; the first model reloads it, and only
    /// the query's observers hear about it.
    static func shareTheFile(_ file: URL, with persisted: Persisted<SavedScene>) async {
      let other = Persisted(fileAt: file, savePolicy: .debounce(seconds: 0.05)) { SavedScene() }
      let queryChanges = Counter()
      let pathChanges = Counter()
      let model = UncheckedModel(persisted.model)  // observed on the main actor only
      let tokens = [
        observe { _ = model.scene.query; queryChanges.increment() },
        observe { _ = model.scene.path; pathChanges.increment() },
      ]
      other.model.query = "oolong, from another writer"
      Narrator.say("another writer of the file sets the query (debounced: written 50 ms later)")
      for _ in 0..<3000 where persisted.model.query != other.model.query {
        try? await Task.sleep(for: .milliseconds(1))
      }
      Narrator.say(
        "the file changed; this model reloaded: query \"\(persisted.model.query)\" "
          + "(query observers ran \(queryChanges.value - 1) time(s), path observers \(pathChanges.value - 1))")
      tokens.forEach { $0.cancel() }
    }

    /// Counts observer runs (they run on the main actor, where the chapter does).
    final class Counter: @unchecked Sendable {
      private(set) var value = 0
      func increment() { value += 1 }
    }

    /// Lets the `@Sendable` observers read the scene; they run on the main actor, where it lives.
    struct UncheckedModel: @unchecked Sendable {
      let scene: SavedScene
      init(_ scene: SavedScene) { self.scene = scene }
    }
  }
