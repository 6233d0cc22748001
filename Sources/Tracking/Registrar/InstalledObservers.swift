extension RegistrarStorage {
  /// One observer installed on an object, and which of the object's properties it
  /// watches.
  @usableFromInline
  struct Entry {
    let observer: TrackingObserver
    let properties: PropertySet
    /// Whether the observer hears will-sets (fixed by its kind; kept here so that a
    /// scan reads it without touching the observer). Fits in the entry's padding.
    let hearsWillSet: Bool
  }

  /// The two masks that say which properties pending observers watch: all of them,
  /// and those of the observers that hear will-sets.
  struct Masks {
    var observed = 0
    var willSet: Int32 = 0
  }

  enum Verdict { case keep, remove }

  /// The observers installed on one object, in installation order (guarded by the
  /// storage's lock).
  ///
  /// Most objects are watched by one tracking at a time, so the first observer is held
  /// by itself, with no array: the properties it watches are then its
  /// ``TrackingObserver/sharedBits``, which it carries for every object it was installed
  /// on (a scope over a list of rows reads the same property of each row, and each row
  /// holds the observer alone). An observer whose properties differ from its shared bits
  /// on this object, or a second observer while the first is still pending, makes an
  /// array of entries, which the object keeps (with its capacity) from then on.
  ///
  /// Fits in one word, like the array it replaces: the storage does not grow.
  @usableFromInline
  enum Observers {
    case none
    /// One observer, watching the properties of its shared bits.
    case one(TrackingObserver)
    case many([RegistrarStorage.Entry])
  }
}

extension RegistrarStorage.Observers {
  typealias Entry = RegistrarStorage.Entry
  typealias Masks = RegistrarStorage.Masks

  /// The number of observers, finished ones not yet swept included.
  var count: Int {
    switch self {
    case .none: 0
    case .one: 1
    case .many(let entries): entries.count
    }
  }

  /// Calls `body` with each observer, in installation order.
  func forEach(_ body: (TrackingObserver) -> Void) {
    switch self {
    case .none: break
    case .one(let observer): body(observer)
    case .many(let entries): for entry in entries { body(entry.observer) }
    }
  }

  /// Calls `body` with each observer and the properties it watches here.
  func forEachEntry(_ body: (TrackingObserver, PropertySet) -> Void) {
    switch self {
    case .none: break
    case .one(let observer): body(observer, observer.sharedProperties)
    case .many(let entries): for entry in entries { body(entry.observer, entry.properties) }
    }
  }

  /// Whether an array is full and at least 8 long: then finished entries are swept
  /// before another is added, rather than the array growing.
  var shouldSweepBeforeAdding: Bool {
    guard case .many(let entries) = self else { return false }
    return entries.count == entries.capacity && entries.count >= 8
  }

  /// Adds `observer`, watching `properties`. The caller holds the lock and publishes
  /// the new masks.
  mutating func add(_ observer: TrackingObserver, properties: PropertySet, hearsWillSet: Bool) {
    let entry = { Entry(observer: observer, properties: properties, hearsWillSet: hearsWillSet) }
    switch self {
    case .none:
      self = observer.sharesBits(properties) ? .one(observer) : .many([entry()])
    case .one(let first) where !first.isPending:
      // The one observer has finished: the new one takes its place.
      self = observer.sharesBits(properties) ? .one(observer) : .many([entry()])
    case .one(let first):
      var entries: [Entry] = []
      entries.reserveCapacity(4)
      entries.append(Entry(observer: first, properties: first.sharedProperties, hearsWillSet: first.hearsWillSet))
      entries.append(entry())
      self = .many(entries)
    case .many(var entries):
      self = .none  // so that `entries` is the array's only reference
      entries.append(entry())
      self = .many(entries)
    }
  }

  /// One pass over the observers, in order, that keeps the rest in place and returns
  /// the union of the properties it keeps (the new masks).
  ///
  /// - With `changing: id`, observers that do not watch `id` are kept untouched: they
  ///   are not even looked at, so a write pays one bit test per unrelated entry.
  ///   Observers that watch `id` are dropped if they have finished elsewhere, else
  ///   `decide` says whether they stay.
  /// - With `changing: nil` (a sweep), every finished observer is dropped.
  ///
  /// Entries are borrowed through the buffer and moved, never copied, so scanning an
  /// entry retains nothing (copying one would retain its observer and release it).
  ///
  /// The observers are moved out of `self` for the pass and moved back if any stays:
  /// bound in place, the single observer would be retained for the pass (and the array
  /// would not be uniquely referenced).
  @inline(__always)
  mutating func compact(changing id: Int?, _ decide: (TrackingObserver) -> RegistrarStorage.Verdict) -> Masks {
    var taken = Self.none
    swap(&taken, &self)
    switch consume taken {
    case .none:
      return Masks()
    case .one(let observer):
      let properties = observer.sharedProperties
      let keep: Bool
      if let id, !properties.contains(id) {
        keep = true
      } else {
        keep = observer.isPending && decide(observer) == .keep
      }
      guard keep else { return Masks() }
      let masks = Masks(
        observed: RegistrarStorage.mask(of: properties),
        willSet: observer.hearsWillSet ? RegistrarStorage.willSetMask(of: properties) : 0)
      self = .one(observer)
      return masks
    case .many(var entries):
      let masks = Self.compact(&entries, changing: id, decide)
      self = .many(entries)
      return masks
    }
  }

  @inline(__always)
  private static func compact(
    _ array: inout [Entry], changing id: Int?, _ decide: (TrackingObserver) -> RegistrarStorage.Verdict
  ) -> Masks {
    var masks = Masks()
    var kept = 0
    let count = array.count
    array.withUnsafeMutableBufferPointer { entries in
      for index in 0..<count {
        let keep: Bool
        if let id, !entries[index].properties.contains(id) {
          keep = true
        } else {
          // The observer is borrowed from the entry (reading the entry out would retain
          // and release its observer and property set).
          keep = Unmanaged.passUnretained(entries[index].observer)._withUnsafeGuaranteedRef { observer in
            observer.isPending && decide(observer) == .keep
          }
        }
        guard keep else { continue }
        masks.observed |= RegistrarStorage.mask(of: entries[index].properties)
        if entries[index].hearsWillSet { masks.willSet |= RegistrarStorage.willSetMask(of: entries[index].properties) }
        if kept != index { entries.swapAt(kept, index) }
        kept += 1
      }
    }
    // Usually one entry goes; `removeLast()` avoids the generic range removal.
    for _ in kept..<count { array.removeLast() }
    return masks
  }
}
