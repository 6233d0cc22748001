/// The observers a mutation must notify, collected under the lock and run after it.
/// Holds the common single observer inline so that firing one tracking allocates
/// nothing; beyond one, the rest go to an array sized once for the worst case (every
/// entry of the registrar), so firing many costs one allocation, not one per doubling.
struct DueObservers {
  private var first: TrackingObserver?
  private var others: [TrackingObserver] = []
  /// How much of the change the due observers' callbacks need described (the most
  /// any of them needs).
  private(set) var needs = TrackingObserver.Handler.Needs.nothing

  var isEmpty: Bool { first == nil }

  var count: Int { first == nil ? 0 : 1 + others.count }

  /// The observer, when exactly one is due.
  var only: TrackingObserver? { others.isEmpty ? first : nil }

  /// Adds an observer. `scanned` is the number of entries being scanned, the most
  /// that can be appended; the spill array is sized for it on first use.
  @inline(__always)
  mutating func append(_ observer: TrackingObserver, scanned: Int, needs: TrackingObserver.Handler.Needs) {
    if needs > self.needs { self.needs = needs }
    if first == nil {
      first = observer
      return
    }
    if others.isEmpty { others.reserveCapacity(Swift.max(scanned - 1, 1)) }
    others.append(observer)
  }

  func forEach(_ body: (TrackingObserver) -> Void) {
    guard let first else { return }
    body(first)
    for observer in others { body(observer) }
  }
}
