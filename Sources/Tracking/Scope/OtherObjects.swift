/// The objects an ``AccessList`` read after its first one, in the order first read,
/// with an index once there are many.
///
/// A scope that reads a second object often reads several (a list of rows), so the
/// entries start with room for a few rather than growing one at a time. Beyond
/// ``indexThreshold`` entries a hash index (``ObjectIndex``) finds an object's entry,
/// keeping a scope over a thousand row models linear in their number.
@usableFromInline
struct OtherObjects {
  /// The entries, in the order the objects were first read. Their positions never
  /// change: a scope only adds objects.
  var entries: [AccessList.Entry]
  /// Where each entry is; `nil` until there are more than ``indexThreshold``.
  private var index: ObjectIndex?

  /// Beyond this many entries, `index` is kept.
  static let indexThreshold = 8

  /// Entries holding `first` alone.
  init(_ first: consuming AccessList.Entry) {
    entries = []
    entries.reserveCapacity(Self.indexThreshold)
    entries.append(first)
  }

  /// The position of `storage`'s entry, if it has one.
  func position(of storage: RegistrarStorage) -> Int? {
    if let index { return index.position(of: storage, in: entries) }
    return entries.firstIndex { $0.storage === storage }
  }

  /// Adds the entry of an object that has none yet.
  @inline(__always)
  mutating func append(_ entry: consuming AccessList.Entry) {
    entries.append(entry)
    if index != nil {
      index!.add(entries.count - 1, in: entries)
    } else if entries.count > Self.indexThreshold {
      index = ObjectIndex(entries)
    }
  }
}
