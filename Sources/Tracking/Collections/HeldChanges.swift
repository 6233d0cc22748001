/// What a held mutation of a tracked collection changed, kept until the mutation ends
/// and delivered then (see `TrackedElements`).
///
/// **Why later.** A ``Trackable()`` class's `_modify` holds exclusive access to its
/// stored property while the caller mutates it. A callback run during that mutation
/// that read the property (`model.rows` again, in an `onChange` or an `observe` body)
/// would be a simultaneous access, which Swift traps. So a held collection records
/// what it changes, and the class delivers it after its access ends: will-sets first,
/// then did-sets, as a write of a class property does — except that the will-sets come
/// after the change is made, since which elements change is known only then.
/// ``TrackingEvent/value(of:)`` at will-set still reads the element's old value (the
/// record keeps it, for elements whose readers hear will-sets).
///
/// Most held mutations change one element or the structure: the first element is
/// held inline, so recording it allocates nothing.
public struct _HeldChanges<Root: TrackedCollectionRoot>: _DeliverableChanges {
  @usableFromInline typealias Cell = ElementCell<Root>

  /// One changed element: its cell (whose registrar its readers wait on) and, when
  /// its readers hear will-sets, a cell holding its value before the change.
  @usableFromInline
  struct Element {
    @usableFromInline let cell: Cell
    @usableFromInline let before: Cell?

    @inlinable
    init(cell: Cell, before: Cell?) {
      self.cell = cell
      self.before = before
    }
  }

  /// The collection's registrar: the readers of the structure (0) and of every
  /// value (1).
  @usableFromInline let observation: StateObservation
  /// Whether the collection was replaced as a whole (another identity).
  @usableFromInline var replaced = false
  @usableFromInline var structure = false
  @usableFromInline var contents = false
  @usableFromInline var first: Element?
  @usableFromInline var more: [Element] = []

  @inlinable
  init(observation: StateObservation) {
    self.observation = observation
  }

  /// The record of a mutation that replaced the collection (whose record, if any,
  /// left with the old value).
  @inlinable
  static func replacement(of observation: StateObservation) -> _HeldChanges {
    var changes = _HeldChanges(observation: observation)
    changes.replaced = true
    return changes
  }

  /// Records that the element in `cell` is about to change.
  @inlinable
  mutating func record(_ cell: Cell) {
    contents = true
    let storage = cell.registrar.storage
    guard storage.hasReaders || TrackingInterop.isRelaying else { return }
    let before = storage.observesWillSet(0) ? cell.clone() : nil
    if first == nil {
      first = Element(cell: cell, before: before)
    } else {
      more.append(Element(cell: cell, before: before))
    }
  }

  /// Whether the collection was replaced as a whole during the mutation.
  @inlinable
  public var _replaced: Bool { replaced }

  /// Delivers the changes: every will-set, then every did-set.
  @inlinable
  public func _deliver() {
    forEachElement { ($0.before ?? $0.cell).notifyWillSet() }
    if structure { observation.notifyWillSet(CollectionProperty.structure) }
    if contents { observation.notifyWillSet(CollectionProperty.contents) }
    // The did-sets of one mutation reach each observer once, after all of them (a
    // removal tells the removed element's readers and the structure's): in one batch,
    // unless there is only one.
    let contentsRead = contents && observation.isRead(CollectionProperty.contents)
    if (first == nil ? 0 : 1 + more.count) + (structure ? 1 : 0) + (contentsRead ? 1 : 0) > 1 {
      withTransaction { () -> Void in self.didSet(contentsRead: contentsRead) }
    } else {
      didSet(contentsRead: contentsRead)
    }
  }

  @inlinable
  func didSet(contentsRead: Bool) {
    forEachElement { $0.cell.notifyDidSet() }
    if structure { observation.notifyDidSet(CollectionProperty.structure) }
    if contentsRead { observation.notifyDidSet(CollectionProperty.contents) }
  }

  @inlinable
  func forEachElement(_ body: (Element) -> Void) {
    guard let first else { return }
    body(first)
    for element in more { body(element) }
  }
}
