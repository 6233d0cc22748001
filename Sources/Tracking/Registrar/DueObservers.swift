/// The observers a mutation must notify, collected under the lock and run after it.
/// The common single observer is held inline, so that firing one tracking allocates
/// nothing; beyond one, the rest go to an array sized once for the worst case (every
/// entry of the registrar), so firing many costs one allocation, not one per doubling.
struct DueObservers {
  private var observers = SmallList<TrackingObserver>()
  /// How much of the change the due observers' callbacks need described (the most
  /// any of them needs).
  private(set) var needs = TrackingObserver.Handler.Needs.nothing

  var isEmpty: Bool { observers.isEmpty }

  var count: Int { observers.count }

  /// The observer, when exactly one is due, moved out of the list.
  consuming func takeOnly() -> TrackingObserver? { observers.takeOnly() }

  /// Adds an observer. `scanned` is the number of entries being scanned, the most
  /// that can be appended; the spill array is sized for it on first use.
  @inline(__always)
  mutating func append(_ observer: TrackingObserver, scanned: Int, needs: TrackingObserver.Handler.Needs) {
    if needs > self.needs { self.needs = needs }
    if !observers.isEmpty { observers.reserveCapacityForRest(scanned - 1) }
    observers.append(observer)
  }

  func forEach(_ body: (TrackingObserver) -> Void) { observers.forEach(body) }
}
