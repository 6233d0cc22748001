import CTrackingSupport

/// The change behind one or more events, with its object: what a ``TrackingEvent``
/// needs to say which property of which object changed and to read the property's
/// value while the change is being delivered synchronously.
///
/// Made by a registrar only when a due observer's callback takes events (see
/// ``ChangeDescription``), and shared by the events of that change.
/// `@unchecked Sendable`: the subject is only read on the thread that delivers the
/// change (`thread`, fixed at creation), and only while that thread is still
/// delivering (`isLive`, which only that thread reads and writes); the rest is
/// immutable.
///
/// How the subject is held: strongly when the change is delivered before the mutating
/// call returns (every will-set; a did-set when no batch was open, so the batch opened
/// for it drains at once) — the caller holds the object anyway, and `endDelivery`
/// lets go of it. Weakly when a did-set waits for an open batch to drain (a
/// transaction), during which the object may be deallocated: then reads return `nil`.
/// Only that case makes a weak reference, which gives the object a side table (every
/// later retain and release of it then takes the runtime's slow path).
@usableFromInline
package final class EventSource: @unchecked Sendable {
  /// Which property of which object changed.
  let site: ChangeSite?
  private var strongSubject: AnyObject?
  private weak var weakSubject: AnyObject?
  private let thread: UInt
  private var isLive: Bool

  /// For a change of an element of a tracked collection: its cell, which names the
  /// element (see ``keyPath``). Held for as long as the event: a cell is small.
  private let element: (any ElementCellValue)?

  /// A change of `site` on `subject`, being delivered on this thread.
  init(site: ChangeSite, subject: AnyObject, isDidSet: Bool) {
    self.site = site
    self.element = site.keyPath === ElementChange.keyPath ? subject as? any ElementCellValue : nil
    if isDidSet && NotificationBatch.isOpen {  // delivered when that batch drains
      self.weakSubject = subject
    } else {
      self.strongSubject = subject
    }
    self.thread = tracking_current_thread()
    self.isLive = true
  }

  /// A change described after the fact (a continuous observation's latest change):
  /// it says what changed, and reads nothing.
  init(describing site: ChangeSite?) {
    self.site = site
    self.element = nil
    thread = 0
    isLive = false
  }

  /// Ends the synchronous delivery: reads return `nil` from now on. Called by the
  /// delivering thread.
  func endDelivery() {
    guard thread == tracking_current_thread() else { return }
    isLive = false
    strongSubject = nil
  }

  /// The key path of what changed: the property's, the element's in its collection
  /// (`\TrackedList<Row>[id: 7]`), or `nil` for an element this source cannot name (a
  /// change described after the fact).
  var keyPath: AnyKeyPath? {
    if let element { return element.elementKeyPath }
    guard let keyPath = site?.keyPath, keyPath !== ElementChange.keyPath else { return nil }
    return keyPath
  }

  /// The changed property's value, described within a bound (``BoundedDescription``),
  /// while the change is being delivered (introspection).
  var valueDescription: String? {
    guard thread == tracking_current_thread(), isLive, let root = strongSubject ?? weakSubject,
      let keyPath
    else { return nil }
    let subject: Any = root
    return CurrentScope.with(nil) { subject[keyPath: keyPath].map(BoundedDescription.describe) }
  }

  func read<Root, Value>(_ keyPath: KeyPath<Root, Value>) -> Value? {
    guard thread == tracking_current_thread(), isLive, let subject = strongSubject ?? weakSubject else { return nil }
    // An element of a tracked collection: the subject is its cell, the key path the
    // element's in the collection.
    if let cell = subject as? any ElementCellValue { return cell.eventValue(for: keyPath, as: Value.self) }
    guard let root = subject as? Root else { return nil }
    // Not recorded by whatever tracking scope is active on this thread: the read
    // belongs to the callback, not to the code that made the change.
    return CurrentScope.with(nil) { root[keyPath: keyPath] }
  }
}
