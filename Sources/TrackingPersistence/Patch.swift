import Foundation

/// A change to one top-level property of a stored document.
enum FieldChange: Sendable, Equatable {
  /// Store these bytes.
  case set(Data)
  /// Store these bytes only if the stored document has no value for the property: the
  /// defaults written at first save, which must not overwrite what another writer
  /// stored meanwhile.
  case setIfAbsent(Data)
  /// Remove the property (an optional that became `nil`, which `Codable` omits).
  case remove
}

/// The properties one writer changed, by key: what it applies to whatever is stored.
typealias Patch = [String: FieldChange]

extension Patch {
  /// `self` with `newer` applied on top (a newer change of a property replaces an older one).
  func updated(with newer: Patch) -> Patch {
    merging(newer) { older, newer in
      // Defaults never replace a real change that is still waiting.
      if case .setIfAbsent = newer, case .set = older { return older }
      return newer
    }
  }
}

extension StoredDocument {
  /// The document with `patch` applied.
  func applying(_ patch: Patch) -> StoredDocument {
    // A value that is not an object is indivisible: it replaces everything.
    switch patch[Self.wholeValueKey] {
    case .set(let value)?: return StoredDocument(fields: [Self.wholeValueKey: value])
    case .setIfAbsent(let value)?: return fields.isEmpty ? StoredDocument(fields: [Self.wholeValueKey: value]) : self
    case .remove?, nil: break
    }
    var result = self
    for (key, change) in patch {
      switch change {
      case .set(let value): result.fields[key] = value
      case .setIfAbsent(let value): if result.fields[key] == nil { result.fields[key] = value }
      case .remove: result.fields[key] = nil
      }
    }
    return result
  }
}
