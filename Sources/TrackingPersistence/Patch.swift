import Foundation

/// A change to one top-level property of a stored document.
///
/// `base` is the property's value (JSON, `nil`: absent) that the change was made
/// against: the value the model last restored, reloaded or stored for it. A write that
/// finds something else stored has met another writer's change of the same property:
/// a ``PropertyConflict``.
enum FieldChange: Sendable, Equatable {
  /// Store these bytes.
  case set(Data, base: Data?)
  /// Store these bytes only if the stored document has no value for the property: the
  /// defaults written at first save, which must not overwrite what another writer
  /// stored meanwhile.
  case setIfAbsent(Data)
  /// Remove the property (an optional that became `nil`, which `Codable` omits).
  case remove(base: Data?)

  /// The base of a change made against a known value; `setIfAbsent` has none.
  var base: Data?? {
    switch self {
    case .set(_, let base), .remove(let base): base
    case .setIfAbsent: nil
    }
  }

  /// The same change, made against `base`.
  func rebased(on base: Data??) -> FieldChange {
    guard let base else { return self }
    switch self {
    case .set(let value, _): return .set(value, base: base)
    case .remove: return .remove(base: base)
    case .setIfAbsent: return self
    }
  }
}

/// The properties one writer changed, by key: what it applies to whatever is stored.
typealias Patch = [String: FieldChange]

extension Patch {
  /// `self` with `newer` applied on top: a newer change of a property replaces an older
  /// one, and keeps the older one's base (the value the first unsaved change was made
  /// against).
  func updated(with newer: Patch) -> Patch {
    merging(newer) { older, newer in
      // Defaults never replace a real change that is still waiting.
      if case .setIfAbsent = newer, case .set = older { return older }
      return newer.rebased(on: older.base)
    }
  }
}

extension StoredDocument {
  /// The document with `patch` applied. Where a property was changed by another writer
  /// since the patch's change was made (the stored value is not its base), `resolve`
  /// decides — even if both arrived at the same value (two increments of a counter are
  /// not one); without it, the patch's value wins.
  func applying(_ patch: Patch, resolving resolve: ConflictResolver? = nil) -> StoredDocument {
    // A value that is not an object is indivisible: it replaces everything.
    switch patch[Self.wholeValueKey] {
    case .set(let value, let base)?:
      let resolved = Self.resolve(Self.wholeValueKey, value, base: base, stored: fields[Self.wholeValueKey], resolve)
      return StoredDocument(fields: resolved.map { [Self.wholeValueKey: $0] } ?? [:])
    case .setIfAbsent(let value)?: return fields.isEmpty ? StoredDocument(fields: [Self.wholeValueKey: value]) : self
    case .remove?, nil: break
    }
    var result = self
    for (key, change) in patch {
      switch change {
      case .set(let value, let base):
        result.fields[key] = Self.resolve(key, value, base: base, stored: fields[key], resolve)
      case .setIfAbsent(let value): if result.fields[key] == nil { result.fields[key] = value }
      case .remove(let base): result.fields[key] = Self.resolve(key, nil, base: base, stored: fields[key], resolve)
      }
    }
    return result
  }

  /// What to store for `key`: `mine`, unless another writer changed it since `base` and
  /// `resolve` says otherwise.
  private static func resolve(
    _ key: String, _ mine: Data?, base: Data?, stored: Data?, _ resolve: ConflictResolver?
  ) -> Data? {
    guard let resolve, stored != base else { return mine }
    switch resolve(PropertyConflict(key: key, base: base, mine: mine, stored: stored)) {
    case .mine: return mine
    case .stored: return stored
    case .json(let value): return value
    case .absent: return nil
    }
  }
}
