/// The `didSet` notifications of state fields made during one ``StateStore/mutate(_:)``,
/// held until the store holds the new state, so that `didChange` callbacks read it.
final class PendingDidSets: @unchecked Sendable {
  /// The batch of the mutation running in this task (or on this thread), if any.
  @TaskLocal static var current: PendingDidSets?

  /// Only touched by the thread running the mutation.
  private var entries: [(StateObservation, Int)] = []

  func append(_ observation: StateObservation, _ id: Int) {
    entries.append((observation, id))
  }

  /// Delivers the held notifications, in the order the fields changed.
  func flush() {
    let delivered = entries
    entries.removeAll()
    for (observation, id) in delivered {
      observation.registrar.didSet(observation, property: id, keyPath: \.self)
    }
  }
}
