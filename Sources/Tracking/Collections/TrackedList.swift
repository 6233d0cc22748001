/// An ordered collection of identified values whose elements are tracked one by one:
/// editing one row re-runs what read that row, not everything that read the list.
///
/// ```swift
/// struct Row: Identifiable, Equatable { let id: Int; var title: String }
///
/// @Trackable final class Inbox {
///   var rows: TrackedList<Row> = []
/// }
///
/// withTracking { _ = inbox.rows.ids } onChange: { print("the list changed") }
/// withTracking { _ = inbox.rows[id: 7]?.title } onChange: { print("row 7 changed") }
/// inbox.rows[id: 7]?.title = "Read"     // row 7's readers only
/// inbox.rows.append(Row(id: 8, title: "New"))  // the list's readers only
/// ```
///
/// **What a read depends on.**
/// - ``subscript(id:)`` and ``mutate(id:_:)``'s element: that element only (when the
///   ID is absent: the structure, so that inserting it re-runs the reader);
/// - ``ids``, ``count``, ``isEmpty``, ``contains(id:)``, ``index(id:)``: the
///   structure (which IDs, in which order);
/// - reading by position (`rows[0]`, iterating): the structure and each element read;
/// - ``elements``: the structure and every element, as one dependency.
///
/// **What a change notifies.** An edit of one element (through ``subscript(id:)``,
/// ``mutate(id:_:)`` or ``updateOrAppend(_:)``) notifies that element's readers and the
/// readers of ``elements``; an insertion or a move, the structure's readers; a removal,
/// the structure's and the removed element's readers. Setting an element to an equal
/// value (for `Equatable` elements) notifies no one; an in-place edit always notifies,
/// as a ``Trackable()`` class's `_modify` does.
///
/// **Where it notifies.** As a property of a ``Trackable()`` class, in-place mutations
/// (`model.rows[id: x]?.title = …`, `model.rows.append(…)`) notify as above and do not
/// notify the readers of the property itself; assigning a whole list
/// (`model.rows = other`) replaces it and notifies everyone who read through it. As
/// a field of ``TrackedState()`` struct state, or as a ``StateStore``'s state, the
/// store compares the list before and after each mutation and notifies the same
/// readers (that comparison walks the list: struct state pays for the list's size per
/// mutation, a class property does not). A copy of the list anywhere else is an
/// independent value: mutating it notifies no one.
///
/// **Bad input.** An ID must identify one element, and an element's ID must not
/// change while it is in the list: both are checked with a precondition (a
/// programming error, like a duplicate key in `Dictionary(uniqueKeysWithValues:)`),
/// because every trap-free alternative would silently drop or overwrite an element.
/// ``append(_:)``, ``insert(_:at:)`` and ``init(uniqueElements:)`` trap on a duplicate
/// ID; an edit that changes the element's ID traps; ``subscript(id:)`` with a value of
/// another ID traps. Input from outside the program goes through
/// ``init(checking:)`` (which throws ``DuplicateIDError``) or decoding (which throws
/// `DecodingError.dataCorrupted`), and ``updateOrAppend(_:)`` merges by ID. An edit of
/// an absent ID (`rows[id: missing]?.title = …`, ``mutate(id:_:)``) changes nothing
/// and returns `nil`.
///
/// Value semantics: copies are independent. `Equatable`, `Hashable`, `Codable` and
/// `Sendable` when the elements are; `==`, hashing and coding read the values without
/// tracking them.
public struct TrackedList<Element: Identifiable>: TrackedCollectionRoot {
  public typealias Key = Element.ID
  public typealias Value = Element

  @usableFromInline
  var storage: TrackedElements<TrackedList>

  /// An empty list.
  @inlinable
  public init() {
    storage = TrackedElements()
  }

  /// A list of `elements`, in order. Traps if two elements have the same ID; use
  /// ``init(checking:)`` for input from outside the program.
  @inlinable
  public init(uniqueElements elements: some Sequence<Element>) {
    switch TrackedElements<TrackedList>.make(elements.lazy.map { ($0.id, $0) }) {
    case .elements(let storage): self.storage = storage
    case .duplicate(let duplicate): preconditionFailure("TrackedList: two elements have the ID \(duplicate)")
    }
  }

  /// The key path of the element with ID `key`.
  @inlinable
  public static func _elementKeyPath(_ key: Element.ID) -> AnyKeyPath { \TrackedList[id: key] }

  // MARK: Reading

  /// The elements' IDs, in order. Depends on the structure only: ideal for a list
  /// view (`ForEach(model.rows.ids, id: \.self)`).
  @inlinable
  public var ids: [Element.ID] { storage.keys }

  /// Every element, in order. Depends on the structure and on every element.
  @inlinable
  public var elements: [Element] { storage.values }

  /// Whether an element has ID `id`. Depends on the structure.
  @inlinable
  public func contains(id: Element.ID) -> Bool { storage.position(of: id) != nil }

  /// The position of the element with ID `id`, if any. Depends on the structure.
  @inlinable
  public func index(id: Element.ID) -> Int? { storage.position(of: id) }

  /// The element with ID `id`, or `nil`.
  ///
  /// Reading depends on that element only (on the structure, when it is absent).
  /// Setting a value replaces the element (notifying its readers, unless it is equal)
  /// or appends it if the ID is absent; setting `nil` removes it. An in-place edit
  /// (`rows[id: x]?.title = "y"`) mutates the element where it is, notifying its
  /// readers, and changes nothing if the ID is absent. The value set must have ID
  /// `id` (a precondition).
  @inlinable
  public subscript(id id: Element.ID) -> Element? {
    get { storage.value(at: id) }
    set {
      if let newValue {
        precondition(newValue.id == id, "TrackedList: an element with ID \(newValue.id) set at ID \(id)")
      }
      storage.setValue(newValue, at: id)
    }
    _modify {
      guard let position = storage.buffer.positions[id] else {
        var value: Element? = nil
        yield &value
        if let value {
          precondition(value.id == id, "TrackedList: an element with ID \(value.id) set at ID \(id)")
          storage.insert(value, at: id, position: storage.buffer.keys.count)
        }
        return
      }
      var value: Element? = storage.beginEdit(at: position)
      defer {
        if let value {
          precondition(value.id == id, "TrackedList: an edit changed an element's ID from \(id) to \(value.id)")
        }
        storage.endEdit(at: position, value: value)
      }
      yield &value
    }
  }

  /// Mutates the element with ID `id` in place and returns what `body` returns, or
  /// `nil` (changing nothing) if no element has that ID. Notifies the element's
  /// readers. `body` must not change the element's ID (a precondition).
  @discardableResult
  @inlinable
  public mutating func mutate<Result>(id: Element.ID, _ body: (inout Element) throws -> Result) rethrows -> Result? {
    try storage.modify(at: id) { element in
      defer { precondition(element.id == id, "TrackedList: an edit changed an element's ID from \(id) to \(element.id)") }
      return try body(&element)
    }
  }

  // MARK: Changing the structure

  /// Appends `element`. Traps if an element already has its ID (see
  /// ``updateOrAppend(_:)``).
  @inlinable
  public mutating func append(_ element: Element) {
    insert(element, at: storage.buffer.keys.count)
  }

  /// Appends each of `elements`, in order. Traps on a duplicate ID.
  @inlinable
  public mutating func append(contentsOf elements: some Sequence<Element>) {
    for element in elements { append(element) }
  }

  /// Inserts `element` at position `index`. Traps if an element already has its ID.
  @inlinable
  public mutating func insert(_ element: Element, at index: Int) {
    precondition(storage.buffer.positions[element.id] == nil, "TrackedList: an element with ID \(element.id) is already in the list")
    storage.insert(element, at: element.id, position: index)
  }

  /// Replaces the element with the same ID (returning the old one), or appends
  /// `element` if its ID is absent (returning `nil`).
  @inlinable @discardableResult
  public mutating func updateOrAppend(_ element: Element) -> Element? {
    let old = storage.buffer.positions[element.id].map { storage.buffer.cells[$0].value! }
    storage.setValue(element, at: element.id)
    return old
  }

  /// Removes the element with ID `id` and returns it, or returns `nil`.
  @inlinable @discardableResult
  public mutating func remove(id: Element.ID) -> Element? {
    guard let position = storage.buffer.positions[id] else { return nil }
    return storage.remove(at: position).value
  }

  /// Removes the element at position `index` and returns it.
  @inlinable @discardableResult
  public mutating func remove(at index: Int) -> Element {
    storage.remove(at: index).value
  }

  /// Removes every element.
  @inlinable
  public mutating func removeAll() {
    storage.removeAll { _, _ in true }
  }

  /// Removes the elements for which `shouldBeRemoved` returns `true`.
  @inlinable
  public mutating func removeAll(where shouldBeRemoved: (Element) throws -> Bool) rethrows {
    try storage.removeAll { _, element in try shouldBeRemoved(element) }
  }

  /// Moves the elements at `offsets` to just before `destination`, as SwiftUI's
  /// `onMove` asks (pass its `IndexSet`). Notifies the structure's readers.
  public mutating func move(fromOffsets offsets: some Sequence<Int>, toOffset destination: Int) {
    storage.reorder { cells in
      let moving = Set(offsets)
      let before = cells[..<destination].enumerated().filter { !moving.contains($0.offset) }.map(\.element)
      let after = cells[destination...].enumerated().filter { !moving.contains($0.offset + destination) }.map(\.element)
      let moved = moving.sorted().map { cells[$0] }
      cells = before + moved + after
    }
  }

  /// Exchanges the elements at positions `i` and `j`.
  @inlinable
  public mutating func swapAt(_ i: Int, _ j: Int) {
    storage.reorder { $0.swapAt(i, j) }
  }

  /// Sorts the list in place with `areInIncreasingOrder`. Notifies the structure's
  /// readers if the order changed.
  public mutating func sort(by areInIncreasingOrder: (Element, Element) throws -> Bool) rethrows {
    try storage.reorder { cells in try cells.sort { try areInIncreasingOrder($0.value!, $1.value!) } }
  }
}

// MARK: - Collection

extension TrackedList: RandomAccessCollection {
  public typealias Index = Int
  public typealias Indices = Range<Int>

  /// Always 0.
  @inlinable
  public var startIndex: Int { 0 }

  /// The number of elements. Depends on the structure.
  @inlinable
  public var endIndex: Int { storage.count }

  /// The element at `position`. Depends on the structure and on that element.
  @inlinable
  public subscript(position: Int) -> Element { storage.element(at: position).value }
}

extension TrackedList: ExpressibleByArrayLiteral {
  /// A list of the given elements. Traps on a duplicate ID.
  public init(arrayLiteral elements: Element...) {
    self.init(uniqueElements: elements)
  }
}

// MARK: - Held mutation and struct state

extension TrackedList: _TracksChangesInPlace {
  /// Starts recording what an in-place mutation changes (see `TrackedElements`).
  @inlinable
  public mutating func _$beginHeldMutation() {
    storage.beginHeld()
  }

  /// Stops recording; what changed, or a replacement if the list was replaced.
  @inlinable
  public mutating func _$endHeldMutation() -> _HeldChanges<TrackedList> {
    storage.endHeld()
  }
}

extension TrackedList: TrackedStateValue {
  /// The list's registrar: its identity and the readers of its structure.
  @inlinable
  public var _$stateRegistrar: StateRegistrar { storage.registrar }

  /// Compares with `old`, recording the structure and the elements that changed.
  @inlinable
  public func _$reportChanges(from old: TrackedList, into changes: inout StateChanges) -> Bool {
    storage.reportChanges(from: old.storage, into: &changes)
  }

  /// Claims the list for a store.
  @inlinable
  public func _$claim(for owner: StateOwner) -> Bool { storage.claim(for: owner) }

  /// Gives the list (and its elements) a new identity if another store holds it.
  public mutating func _$reidentify(for owner: StateOwner) { storage.reidentify(for: owner) }
}

extension TrackedList: Sendable where Element: Sendable {}
