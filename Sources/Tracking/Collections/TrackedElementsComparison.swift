// How a ``StateStore`` finds what changed in a tracked collection that is part of its
// state: it mutates a copy (which notifies no one, not being held) and then compares
// the copy with the collection it held before, as it compares every state value (see
// `StateChanges`). The public types' `_$reportChanges(from:into:)`, `_$claim(for:)`
// and `_$reidentify(for:)` forward here.

extension TrackedElements {
  /// Compares this collection with `old`, the version a store held before a mutation:
  /// returns `true` when this one replaced it (another identity); otherwise records in
  /// `changes` the structure if the keys or their order changed, each element whose
  /// cell is another one (an edit clones the cell) and whose value is not equal (see
  /// ``ValueEquality``), each
  /// removed element, and every value's readers if any element changed or went.
  @inlinable
  func reportChanges(from old: TrackedElements, into changes: inout StateChanges) -> Bool {
    guard registrar.isSame(as: old.registrar) else { return true }
    guard buffer !== old.buffer else { return false }
    // The old and the new collection share it (the same identity), as `record` needs.
    let observation = Unmanaged.passUnretained(registrar.observation)
    var contentsChanged = false
    if buffer.keys == old.buffer.keys {
      for (before, after) in zip(old.buffer.cells, buffer.cells) where before !== after {
        if !ValueEquality.areEqual(before.value!, after.value!) {
          changes.record(after, 0)
          contentsChanged = true
        }
      }
    } else {
      changes.record(observation, Self.structure)
      for after in buffer.cells {
        guard let position = old.buffer.positions[after.key] else { continue }
        let before = old.buffer.cells[position]
        if before !== after && !ValueEquality.areEqual(before.value!, after.value!) {
          changes.record(after, 0)
          contentsChanged = true
        }
      }
      for before in old.buffer.cells where buffer.positions[before.key] == nil {
        changes.record(before, 0)
        contentsChanged = true
      }
    }
    if contentsChanged { changes.record(observation, Self.contents) }
    return false
  }

  /// Claims the collection for the store `owner`; `false` if another store holds it.
  @inlinable
  func claim(for owner: StateOwner) -> Bool {
    registrar.claim(for: owner)
  }

  /// Gives the collection, and each of its elements, a new identity owned by `owner`
  /// if another store holds it: the readers of one store's collection never hear of
  /// another store's changes.
  @usableFromInline
  mutating func reidentify(for owner: StateOwner) {
    guard !registrar.claim(for: owner) else { return }
    registrar.reidentify(for: owner)
    let cells = buffer.cells.map { $0.reidentified() }
    buffer = Buffer(keys: buffer.keys, cells: cells, positions: buffer.positions)
  }
}
