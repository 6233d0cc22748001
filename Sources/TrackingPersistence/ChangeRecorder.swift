import Foundation
import Tracking

/// Knows which top-level properties of a persisted model changed since they were last
/// encoded, without reading or encoding anything else when one changes.
///
/// **How.** One observation per tracked property of the model (the model's class and
/// its tracked superclasses), reading only that property; and one per tracked object
/// held in the model's stored properties (nested models, objects in arrays…), reading
/// all of that object's properties. An observation runs synchronously when what it
/// read changes (immediate delivery, on the model's actor) and *marks* the top-level
/// key it stands for: the property's name, or the name of the property holding the
/// nested object. So a change costs one mark, whatever the size of the model; the
/// encoding of the marked keys happens when the writer needs them (see ``ModelSync``).
///
/// A property whose name is not one of the model's top-level keys (a model with its
/// own `CodingKeys` or `encode(to:)`), or a change the observations can't attribute,
/// marks *everything*: the next encoding covers the whole model. Correct, just not
/// proportional.
///
/// **Nested objects** are found by walking a stored property's value (see
/// ``trackedObjects(in:)``, which skips values that can't hold objects without looking
/// inside), when observing starts and each time the property is encoded again — the
/// objects it holds may have changed. An object still held keeps its observation; the
/// objects are retained, so an identity can't be reused while it is observed.
///
/// Isolation: every method runs on the model's actor; the observations run their
/// bodies only there.
final class ChangeRecorder {
  /// What changed since the last ``take()``.
  struct Changes {
    var keys: Set<String> = []
    var everything = false
    var isEmpty: Bool { keys.isEmpty && !everything }
  }

  private let actor: any Actor
  private var changes = Changes()
  private var root: TrackedObject?
  /// The top-level keys the model's encoding has.
  private var knownKeys: Set<String> = []
  private var rootObservations: [TrackingToken] = []
  /// For each stored property of the model (by key, or `nil` where it maps to none):
  /// the objects it holds and their observations.
  private var nested: [String?: [ObjectIdentifier: (object: AnyObject, token: TrackingToken)]] = [:]
  /// Called on each mark (synchronously, inside the change's `willSet`).
  var onMark: () -> Void = {}

  init(actor: any Actor) {
    self.actor = actor
  }

  var hasChanges: Bool { !changes.isEmpty }

  /// The keys marked since the last ``take()``; `nil` when everything is.
  var markedKeys: Set<String>? { changes.everything ? nil : changes.keys }

  /// The changes since the last call; starts afresh.
  func take() -> Changes {
    defer { changes = Changes() }
    return changes
  }

  /// Marks `changes` again (their encoding failed, so they are still to be written).
  func restore(_ failed: Changes) {
    changes.keys.formUnion(failed.keys)
    changes.everything = changes.everything || failed.everything
  }

  /// Starts observing `model`, whose encoding has the top-level keys `keys`.
  func start(_ model: some Trackable, keys: Set<String>) {
    knownKeys = keys
    let root = TrackedObject(model)
    self.root = root
    for level in root.levels {
      if level.names.isEmpty {
        // A hand-written conformance: properties can't be told apart.
        rootObservations.append(observe(marking: nil) { root.recordReadsOfEveryProperty() })
        continue
      }
      for (id, name) in level.names.enumerated() {
        rootObservations.append(observe(marking: name) { root.recordRead(level: level, property: id) })
      }
    }
    rewatch(properties: nil)
  }

  /// The model's encoding now has the top-level keys `keys` (an encoding of the whole
  /// model found them).
  func update(keys: Set<String>) {
    knownKeys = keys
  }

  /// Finds again the tracked objects held by the stored properties of the model whose
  /// keys are `keys` (all of them for `nil`), and observes the new ones.
  func rewatch(properties keys: Set<String>?) {
    guard let model = root?.object else { return }
    // Read afresh: `root.storedProperties` is a snapshot of when observing started.
    for property in TrackedObject(model).storedProperties {
      let key = key(forStorage: property.label)
      if let keys, !keys.contains(key ?? "") { continue }
      let objects = trackedObjects(in: property.value)
      var kept: [ObjectIdentifier: (object: AnyObject, token: TrackingToken)] = [:]
      var previous = nested[key] ?? [:]
      for tracked in objects {
        let id = ObjectIdentifier(tracked.object)
        if let existing = previous.removeValue(forKey: id) {
          kept[id] = existing
        } else {
          kept[id] = (tracked.object, observe(marking: key) { tracked.recordReadsOfEveryProperty() })
        }
      }
      for (_, stale) in previous { stale.token.cancel() }
      nested[key] = kept
    }
  }

  /// Stops every observation.
  func stop() {
    for token in rootObservations { token.cancel() }
    rootObservations = []
    for (_, objects) in nested {
      for (_, entry) in objects { entry.token.cancel() }
    }
    nested = [:]
  }

  /// The top-level key of the stored property labelled `label` (`_name` for a tracked
  /// property's storage), if the model's encoding has one by that name.
  private func key(forStorage label: String) -> String? {
    if knownKeys.contains(label) { return label }
    if label.hasPrefix("_"), knownKeys.contains(String(label.dropFirst())) { return String(label.dropFirst()) }
    return nil
  }

  private func mark(_ name: String?) {
    if let name, knownKeys.contains(name) {
      changes.keys.insert(name)
    } else {
      changes.everything = true
    }
    onMark()
  }

  /// An observation that runs `read` and, after each change of what it read, marks
  /// `name`'s key (everything, for `nil`).
  private func observe(marking name: String?, _ read: @escaping () -> Void) -> TrackingToken {
    // Only ever run on `actor` (the body runs there), so neither `read` nor `self`
    // leaves it. (Erased to unchecked boxes: the closure must be `@Sendable`.)
    let work = UncheckedSendable((read, { [weak self] in self?.mark(name) } as () -> Void))
    return Reaction.observe(
      options: .willSet, delivery: .immediate, firstRun: .immediate,
      body: .onIsolation(actor) { event in
        work.value.0()
        if event.kind != .initial { work.value.1() }
      })
  }
}
