/// A public tracked collection type, as its engine (`TrackedElements`) sees it: the
/// types of its keys and values, and how a change of one element is named in events.
/// Not meant to be adopted outside this module.
public protocol TrackedCollectionRoot {
  /// What identifies an element: an `Identifiable` element's `ID`, a dictionary's key.
  associatedtype Key: Hashable
  /// An element's value.
  associatedtype Value

  /// The key path of the element at `key` (`\TrackedList<Row>[id: key]`), the
  /// ``TrackingEvent/keyPath`` of a change of that element.
  static func _elementKeyPath(_ key: Key) -> AnyKeyPath
}

/// The properties of a tracked collection's own registrar (not generic, so that code
/// that is not specialized does not look up a generic type to read them).
@usableFromInline
enum CollectionProperty {
  /// The structure: which keys, in which order.
  @usableFromInline static let structure = 0
  /// Every value at once (`elements`, `values`).
  @usableFromInline static let contents = 1
}

/// The engine of the tracked collections: an ordered set of keys, each with a value
/// in a cell of its own (``ElementCell``), and a ``StateRegistrar`` for the collection
/// as a whole. ``TrackedList`` and ``TrackedDictionary`` are thin wrappers around it.
///
/// **What a read depends on.** Reading an element records its cell; reading the
/// structure (keys, order, count) records property 0 of the collection's registrar,
/// and reading every value at once (`elements`, `values`) records property 1 as well.
/// Looking up a key that is absent records the structure (an insertion of that key is
/// what changes the answer).
///
/// **Who notifies.** A value type cannot know whether it is *the* collection that
/// trackings read or a copy of it, so it notifies only while its holder says so:
/// - a ``Trackable()`` class holds it for the duration of an in-place mutation of its
///   property (`model.rows[id: x]?.title = "y"`, `model.rows.append(row)`): the
///   collection records in ``held`` exactly what it changes, and the class delivers
///   that when its exclusive access to the property ends (see ``_HeldChanges``),
///   instead of notifying the readers of the property as a whole;
/// - a ``StateStore`` mutates a copy (never held) and then compares the collection
///   with the one it held before (`_$reportChanges(from:into:)`), notifying the same
///   readers; that comparison walks the collection, so struct state pays time
///   proportional to the collection's size per mutation, a class property does not.
/// Anywhere else (a local copy, a value passed to a function) a mutation notifies no
/// one, as for ``TrackedState()`` values.
///
/// **What a mutation notifies** (held, or found by a store's comparison): an edit of
/// an element, its readers and the readers of every value (property 1); an insertion
/// or a move, the readers of the structure; a removal, the readers of the structure
/// and of the removed element. Setting an element to an equal value (an `Equatable`
/// value type) notifies no one; an in-place edit always notifies, as a class's
/// `_modify` does (comparing would need a copy).
///
/// **Invariants.** `keys[i] == cells[i].key`; `positions[cells[i].key] == i`; keys are
/// unique. A buffer is mutated only when uniquely referenced, a cell only when its
/// buffer is and the cell is too (see ``ElementCell``).
///
/// **Concurrency.** A value type: copies on other threads are independent. The
/// registrars (of the collection and of each cell) are thread-safe, so trackings on any
/// thread may read and be notified, as for a ``Trackable()`` class.
@usableFromInline
struct TrackedElements<Root: TrackedCollectionRoot>: @unchecked Sendable {
  // @unchecked: the buffer is a class, but it is copied before any mutation when
  // shared (copy-on-write), so a value never changes under another thread. The public
  // types are `Sendable` only when their values are.
  @usableFromInline typealias Key = Root.Key
  @usableFromInline typealias Value = Root.Value
  @usableFromInline typealias Cell = ElementCell<Root>

  /// The elements. Mutated only while uniquely referenced (copy on write), so no
  /// access can overlap a mutation: its properties skip the run-time exclusivity check.
  @usableFromInline
  final class Buffer {
    @exclusivity(unchecked) @usableFromInline var keys: [Key]
    @exclusivity(unchecked) @usableFromInline var cells: [Cell]
    @exclusivity(unchecked) @usableFromInline var positions: [Key: Int]

    @inlinable
    init(keys: [Key] = [], cells: [Cell] = [], positions: [Key: Int] = [:]) {
      self.keys = keys
      self.cells = cells
      self.positions = positions
    }

    @inlinable
    func copy() -> Buffer { Buffer(keys: keys, cells: cells, positions: positions) }
  }

  @usableFromInline var buffer: Buffer
  /// The collection's identity, and where the readers of its structure (property 0)
  /// and of all its values (property 1) wait.
  @usableFromInline var registrar: StateRegistrar
  /// What the current held mutation changed, recorded for the holder to deliver when
  /// it ends (see ``_HeldChanges``); `nil` when not held, and then mutations notify
  /// no one.
  @usableFromInline var held: _HeldChanges<Root>?

  /// Property 0 of ``registrar``: the structure (keys and their order).
  @inlinable static var structure: Int { CollectionProperty.structure }
  /// Property 1 of ``registrar``: every value at once.
  @inlinable static var contents: Int { CollectionProperty.contents }

  @inlinable
  init() {
    buffer = Buffer()
    registrar = StateRegistrar()
  }

  /// Elements with unique keys, in order, or the first key that repeats.
  @inlinable
  static func make(_ pairs: some Sequence<(Key, Value)>) -> Made {
    let elements = TrackedElements()
    for (key, value) in pairs {
      guard elements.buffer.positions[key] == nil else { return .duplicate(key) }
      elements.buffer.positions[key] = elements.buffer.keys.count
      elements.buffer.keys.append(key)
      elements.buffer.cells.append(Cell(key: key, value: value))
    }
    return .elements(elements)
  }

  /// What ``make(_:)`` made: the elements, or the first key that repeats.
  @usableFromInline
  enum Made {
    case elements(TrackedElements)
    case duplicate(Key)
  }

  // MARK: Reads

  /// The keys in order; depends on the structure.
  @inlinable
  var keys: [Key] {
    readStructure()
    return buffer.keys
  }

  /// The number of elements; depends on the structure.
  @inlinable
  var count: Int {
    readStructure()
    return buffer.keys.count
  }

  /// Every value, in order; depends on the structure and on every value.
  @usableFromInline
  var values: [Value] {
    readStructure()
    registrar.access(Root.self, property: Self.contents, name: "values")
    return buffer.cells.map { $0.value! }
  }

  /// The value at `key`; depends on that element only (on the structure if absent).
  @inlinable
  func value(at key: Key) -> Value? {
    guard let position = buffer.positions[key] else {
      readStructure()
      return nil
    }
    let cell = buffer.cells[position]
    cell.access()
    return cell.value
  }

  /// The key and value at `position`; depends on the structure (which element is
  /// there) and on that element.
  @inlinable
  func element(at position: Int) -> (key: Key, value: Value) {
    readStructure()
    let cell = buffer.cells[position]
    cell.access()
    return (cell.key, cell.value!)
  }

  /// The position of `key`, if present; depends on the structure.
  @inlinable
  func position(of key: Key) -> Int? {
    readStructure()
    return buffer.positions[key]
  }

  @inlinable @inline(__always)
  func readStructure() {
    registrar.access(Root.self, property: Self.structure, name: "structure")
  }

  // MARK: Copy on write

  /// Makes the buffer unique (copying it, and so sharing every cell, if it is not).
  @inlinable @inline(__always)
  mutating func uniqueBuffer() {
    if !isKnownUniquelyReferenced(&buffer) { buffer = buffer.copy() }
  }

  /// Makes the cell at `position` unique, cloning it if another buffer holds it too.
  @inlinable @inline(__always)
  mutating func uniqueCell(at position: Int) -> Cell {
    if !isKnownUniquelyReferenced(&buffer.cells[position]) {
      buffer.cells[position] = buffer.cells[position].clone()
    }
    return buffer.cells[position]
  }
}
