import Tracking

/// Records, in the current tracking scope, a read of every tracked property of every
/// tracked object reachable from `value` — so the scope's observer fires on any change
/// of anything that encoding `value` would save.
///
/// Encoding alone doesn't do this: the `Codable` conformance that `@Trackable` sets up
/// encodes the properties' backing storage (`_name`, keyed as `name`), which bypasses
/// the tracked getters. So the object graph is walked with `Mirror` instead: each
/// tracked object's ``TrackingRegistrar`` (found by its type among the stored
/// properties) is told about a read of every property number the object could have.
/// Numbers that belong to no property are harmless: nothing ever changes them.
///
/// Value types (arrays, dictionaries, optionals, structs, enums, tuples) are walked
/// into; objects that aren't tracked are not (encoding them can't be observed anyway).
func recordReadsOfAllTrackedProperties(in value: Any) {
  var visited = Set<ObjectIdentifier>()
  walk(value, visited: &visited)
}

private func walk(_ value: Any, visited: inout Set<ObjectIdentifier>) {
  if let object = value as? any Trackable {
    guard visited.insert(ObjectIdentifier(object)).inserted else { return }
    var mirror: Mirror? = Mirror(reflecting: object)
    var storedProperties = 0
    var registrars: [TrackingRegistrar] = []
    while let current = mirror {  // the class and its superclasses
      for child in current.children {
        if let registrar = child.value as? TrackingRegistrar {
          registrars.append(registrar)
        } else {
          storedProperties += 1
          walk(child.value, visited: &visited)
        }
      }
      mirror = current.superclassMirror
    }
    for registrar in registrars {
      recordReads(of: object, through: registrar, count: max(64, storedProperties))
    }
    return
  }
  let mirror = Mirror(reflecting: value)
  switch mirror.displayStyle {
  case .class?, nil:
    return  // an untracked object, or a leaf such as a number or a string
  default:
    for child in mirror.children { walk(child.value, visited: &visited) }
  }
}

private func recordReads<Subject: Trackable>(of subject: Subject, through registrar: TrackingRegistrar, count: Int) {
  for id in 0..<count {
    registrar.access(subject, property: id, keyPath: \Subject.self)
  }
}
