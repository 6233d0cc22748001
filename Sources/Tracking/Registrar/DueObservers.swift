/// The observers a mutation must notify, collected under the lock and run after it.
///
/// The first two are held inline: one observer is the common case of a property, and
/// two are what a value read by two derived values has (the diamond `b = 2a`,
/// `c = 3a`), so firing either allocates nothing. Beyond two, the rest go to an array
/// sized once for the worst case (every entry of the registrar), so firing many costs
/// one allocation, not one per doubling.
struct DueObservers {
  private var first: TrackingObserver?
  private var second: TrackingObserver?
  /// `nil` until a third is due: an empty array would be released with the list, a
  /// call into the runtime even for the shared empty storage.
  private var rest: [TrackingObserver]?
  /// How much of the change the due observers' callbacks need described (the most
  /// any of them needs).
  private(set) var needs = TrackingObserver.Handler.Needs.nothing

  var isEmpty: Bool { first == nil }

  /// ``isEmpty``, testing all three fields although `first` alone answers (the others
  /// are `nil` while it is): where the list is found empty this way, the compiler knows
  /// it holds nothing, and its end calls no release (two calls, for `nil`, per write
  /// that reaches only nodes of the graph). Not `isEmpty` itself: a write that reaches
  /// observers then paid the extra tests.
  var holdsNothing: Bool { first == nil && second == nil && rest == nil }

  var count: Int { first == nil ? 0 : second == nil ? 1 : 2 + (rest?.count ?? 0) }

  /// The observer, when exactly one is due, moved out of the list (read from it
  /// instead, the observer would be retained for the caller).
  consuming func takeOnly() -> TrackingObserver? { second == nil ? first.take() : nil }

  /// Adds an observer. `scanned` is the number of entries being scanned, the most
  /// that can be appended; the spill array is sized for it on first use.
  @inline(__always)
  mutating func append(_ observer: TrackingObserver, scanned: Int, needs: TrackingObserver.Handler.Needs) {
    if needs > self.needs { self.needs = needs }
    if first == nil {
      first = observer
    } else if second == nil {
      second = observer
    } else {
      if rest == nil {
        var spill: [TrackingObserver] = []
        spill.reserveCapacity(Swift.max(scanned - 2, 1))
        rest = spill
      }
      rest?.append(observer)
    }
  }

  /// Calls `body` with each observer, in the order they were added, moving the first
  /// two out of the list: read from it, each was retained for the call and released
  /// again with the list (two pairs per write that reaches two observers).
  mutating func drain(_ body: (TrackingObserver) -> Void) {
    guard let first = first.take() else { return }
    body(first)
    guard let second = second.take() else { return }
    body(second)
    guard let rest else { return }
    for observer in rest { body(observer) }
  }

  /// The observers, to hand out in installation order among the nodes a write reached
  /// (see ``RegistrarStorage/didSet(_:subject:site:)``): a change that reaches both is
  /// rare, so they go to an array.
  consuming func inOrder() -> InOrder {
    var observers: [TrackingObserver] = []
    observers.reserveCapacity(count)
    drain { observers.append($0) }
    return InOrder(observers: observers)
  }

  /// Due observers handed out in installation order (they were collected in it).
  struct InOrder {
    let observers: [TrackingObserver]
    private var next = 0

    init(observers: [TrackingObserver]) { self.observers = observers }

    /// Calls `body` with the observers not handed out yet that were installed before
    /// `order`.
    mutating func take(before order: UInt64, _ body: (TrackingObserver) -> Void) {
      while next < observers.count && observers[next].installOrder < order {
        body(observers[next])
        next += 1
      }
    }

    /// Calls `body` with the observers not handed out yet.
    mutating func takeRest(_ body: (TrackingObserver) -> Void) {
      while next < observers.count {
        body(observers[next])
        next += 1
      }
    }
  }
}
