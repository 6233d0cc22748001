// The mutations of a tracked collection's engine. Each one keeps the buffer's
// invariants (see ``TrackedElements``) and, while the collection is held, notifies
// exactly the readers of what it changes: will-sets before the change, did-sets after.

extension TrackedElements {
  // MARK: Notifications (recorded while held, delivered by the holder)

  /// Starts a held mutation: from now on, changes are recorded.
  @inlinable
  mutating func beginHeld() {
    held = _HeldChanges(observation: registrar.observation)
  }

  /// Ends a held mutation and returns what it changed. A value with no record, or
  /// with another identity than the record's, replaced the one whose mutation began
  /// (`swap`, an assignment through `inout`): its holder notifies every reader.
  @inlinable
  mutating func endHeld() -> _HeldChanges<Root> {
    guard let changes = held.take(), changes.observation === registrar.observation else {
      return .replacement(of: registrar.observation)
    }
    return changes
  }

  @inlinable @inline(__always)
  mutating func structureWillChange() {
    if held != nil { held!.structure = true }
  }

  @inlinable @inline(__always)
  mutating func elementWillChange(_ cell: Cell) {
    if held != nil { held!.record(cell) }
  }

  // MARK: Editing one element

  /// Starts an in-place edit of the element at `position`: records the change (see
  /// ``held``) and moves the value out of its cell, for the caller to mutate in place
  /// and hand back to ``endEdit(at:value:)``.
  @inlinable
  mutating func beginEdit(at position: Int) -> Value {
    uniqueBuffer()
    let cell = uniqueCell(at: position)
    elementWillChange(cell)
    return cell.value.take()!
  }

  /// Ends an in-place edit: stores `value` back, or removes the element if `nil`. The
  /// cell at `position` is the one ``beginEdit(at:)`` made unique.
  @inlinable
  mutating func endEdit(at position: Int, value: Value?) {
    let cell = buffer.cells[position]
    guard let value else {
      // Removed through the optional (`$0 = nil` in a modify): the cell, which only
      // this buffer holds, leaves with no value; its change is already recorded.
      structureWillChange()
      removeFromBuffer(at: position)
      return
    }
    cell.value = value
  }

  /// Mutates the value at `key` in place, if present; returns `body`'s result, or
  /// `nil` when the key is absent (and then nothing changes and no one is notified).
  @inlinable
  mutating func modify<Result>(at key: Key, _ body: (inout Value) throws -> Result) rethrows -> Result? {
    guard let position = buffer.positions[key] else { return nil }
    var value = beginEdit(at: position)
    defer { endEdit(at: position, value: value) }
    return try body(&value)
  }

  /// Sets the value at `key`: replaces it (notifying its readers unless the new value
  /// is equal, by `equal`), appends it if absent, removes it if `value` is `nil`.
  @inlinable
  mutating func setValue(_ value: Value?, at key: Key) {
    guard let position = buffer.positions[key] else {
      if let value { insert(value, at: key, position: buffer.keys.count) }
      return
    }
    guard let value else {
      _ = remove(at: position)
      return
    }
    if ValueEquality.areEqual(buffer.cells[position].value!, value) {
      // Equal: nothing to tell anyone; the new value is still stored (an equal value
      // may differ in ways `==` ignores), as a class's setter does.
      uniqueBuffer()
      uniqueCell(at: position).value = value
      return
    }
    uniqueBuffer()
    let cell = uniqueCell(at: position)
    elementWillChange(cell)
    cell.value = value
  }

  // MARK: Structure

  /// Inserts `value` under the new key `key` at `position`.
  @inlinable
  mutating func insert(_ value: Value, at key: Key, position: Int) {
    precondition(buffer.positions[key] == nil, "a tracked collection already has an element with key \(key)")
    precondition(position >= 0 && position <= buffer.keys.count, "position \(position) is out of bounds")
    uniqueBuffer()
    structureWillChange()
    buffer.keys.insert(key, at: position)
    buffer.cells.insert(Cell(key: key, value: value), at: position)
    if position == buffer.keys.count - 1 {
      buffer.positions[key] = position
    } else {
      renumber(from: position)
    }
  }

  /// Removes the element at `position` and returns it.
  @inlinable
  mutating func remove(at position: Int) -> (key: Key, value: Value) {
    uniqueBuffer()
    let cell = buffer.cells[position]
    structureWillChange()
    elementWillChange(cell)
    removeFromBuffer(at: position)
    return (cell.key, cell.value!)
  }

  /// Removes every element for which `shouldRemove` returns `true`.
  @inlinable
  mutating func removeAll(where shouldRemove: (Key, Value) throws -> Bool) rethrows {
    var removed: [Int] = []
    for (position, cell) in buffer.cells.enumerated() where try shouldRemove(cell.key, cell.value!) {
      removed.append(position)
    }
    guard !removed.isEmpty else { return }
    uniqueBuffer()
    let cells = removed.map { buffer.cells[$0] }
    structureWillChange()
    for cell in cells { elementWillChange(cell) }
    var kept: [Cell] = []
    kept.reserveCapacity(buffer.cells.count - removed.count)
    var next = removed.makeIterator()
    var skip = next.next()
    for (position, cell) in buffer.cells.enumerated() {
      if position == skip {
        skip = next.next()
      } else {
        kept.append(cell)
      }
    }
    replaceOrder(with: kept)
  }

  /// Puts the elements in the order `reorder` gives their cells (the same cells, in
  /// any order): a move, a sort. Notifies the structure's readers if the order changed.
  @inlinable
  mutating func reorder(_ reorder: (inout [Cell]) throws -> Void) rethrows {
    var cells = buffer.cells
    try reorder(&cells)
    precondition(cells.count == buffer.cells.count, "a reordering must keep every element")
    guard !zip(cells, buffer.cells).allSatisfy({ $0 === $1 }) else { return }
    uniqueBuffer()
    structureWillChange()
    replaceOrder(with: cells)
  }

  // MARK: Buffer upkeep (no notifications)

  @inlinable
  mutating func removeFromBuffer(at position: Int) {
    let key = buffer.keys.remove(at: position)
    buffer.cells.remove(at: position)
    buffer.positions[key] = nil
    renumber(from: position)
  }

  /// Makes `cells` the buffer's elements (keys and positions follow).
  @inlinable
  mutating func replaceOrder(with cells: [Cell]) {
    buffer.cells = cells
    buffer.keys = cells.map(\.key)
    buffer.positions.removeAll(keepingCapacity: true)
    renumber(from: 0)
  }

  /// Recomputes the positions of the elements from `start` on.
  @inlinable
  mutating func renumber(from start: Int) {
    var position = start
    while position < buffer.keys.count {
      buffer.positions[buffer.keys[position]] = position
      position += 1
    }
  }
}
