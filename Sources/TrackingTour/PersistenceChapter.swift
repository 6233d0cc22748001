  import Foundation
  import Tracking
  import TrackingPersistence

  /// The scene a search screen restores at launch: a query and a navigation path.
  /// (Used on the main actor only; not `@MainActor` itself, so `Codable` is synthesized.)
  @Trackable final class SavedScene: Codable {
    var query = ""
    var path: [String] = []
  }

  /// Persistence: the scene is saved whenever it changes and restored on the next run.
  @MainActor
  enum PersistenceChapter {
    static func run() async {
      Narrator.chapter("Persistence: save on change, restore on launch (run the tour twice)")
      let file = FileManager.default.temporaryDirectory.appendingPathComponent("tracking-tour-scene.json")
      let persisted = Persisted(
        fileAt: file,
        onError: { error in print("   persistence error: \(error)") }
      ) { SavedScene() }
      let scene = persisted.model
      if scene.query.isEmpty && scene.path.isEmpty {
        Narrator.say("nothing saved yet at \(file.path): starting from defaults")
      } else {
        Narrator.say("restored from the previous run: query \"\(scene.query)\", path \(scene.path)")
      }

      let run = scene.path.count + 1
      scene.query = "tea, run \(run)"
      scene.path.append("results \(run)")
      Narrator.say("changed the scene (one transaction): query \"\(scene.query)\", path \(scene.path)")
      // Saved as soon as the main actor is free: no flush needed, no background event.
      for _ in 0..<1000 where persisted.saveCount == 0 {
        try? await Task.sleep(for: .milliseconds(1))
      }
      Narrator.say("saved on change: \(persisted.saveCount) write(s) to \(file.lastPathComponent)")

      scene.path.append("detail")
      scene.path.removeLast()
      do {
        try persisted.flush()  // what an app does at shutdown: the latest state, now
        Narrator.say("flush: nothing new to write (\(persisted.saveCount) write(s) in total)")
      } catch {
        Narrator.say("flush failed: \(error)")
      }
      Narrator.say("run the tour again to see this state restored")
    }
  }
