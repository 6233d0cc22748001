import Foundation

/// A stored value split into its top-level properties: the unit of merging.
///
/// A model's encoding is a JSON object whose keys are the model's properties; each
/// key's value is kept as the exact bytes it had (a *fragment*), so that comparing two
/// documents key by key compares what was written, and patching one key leaves every
/// other key's bytes — including keys this version of the app doesn't know — as they
/// were. A value that is JSON but not an object (a model with a custom encoding) is one
/// indivisible property, ``wholeValueKey``.
///
/// Only the top level is scanned here; the fragments are checked when the model is
/// decoded from them. Two rules make every reader agree on what a document says:
/// - A leading UTF-8 byte order mark is skipped (`JSONDecoder` accepts one too); text
///   that is not UTF-8 is malformed.
/// - A key that occurs more than once takes its **last** value. The model is always
///   decoded from ``serialized()`` (one value per key), never from the raw bytes, so what
///   is restored, what is merged and what is saved back agree on every platform,
///   whatever `JSONDecoder` would pick.
struct StoredDocument: Equatable, Sendable {
  /// The key under which a value that is not a JSON object is kept whole.
  static let wholeValueKey = "\u{0}whole"

  /// Each top-level key and the bytes of its value.
  var fields: [String: Data]

  init(fields: [String: Data] = [:]) {
    self.fields = fields
  }

  /// Splits `data`, or fails with ``Malformed`` if it is not one JSON value.
  init(parsing data: Data) throws(Malformed) {
    var bytes = [UInt8](data)
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }  // a byte order mark
    guard Self.isUTF8(bytes) else {
      throw Malformed(offset: 0, reason: "text that is not UTF-8")
    }
    var scanner = JSONScanner(bytes: bytes)
    scanner.skipWhitespace()
    if scanner.peek() == UInt8(ascii: "{") {
      fields = try scanner.objectFields()
    } else {
      let start = scanner.position
      try scanner.skipValue()
      fields = [Self.wholeValueKey: Data(scanner.bytes[start..<scanner.position])]
    }
    scanner.skipWhitespace()
    guard scanner.isAtEnd else { throw Malformed(offset: scanner.position, reason: "text after the value") }
  }

  private static func isUTF8(_ bytes: [UInt8]) -> Bool {
    var iterator = bytes.makeIterator()
    var decoder = UTF8()
    while true {
      switch decoder.decode(&iterator) {
      case .scalarValue: continue
      case .emptyInput: return true
      case .error: return false
      }
    }
  }

  /// The document as JSON: an object with sorted keys (so equal documents are equal
  /// bytes), or the whole value as it was.
  func serialized() -> Data {
    if fields.count == 1, let whole = fields[Self.wholeValueKey] { return whole }
    var out = Data("{".utf8)
    for (index, key) in fields.keys.sorted().enumerated() {
      if index > 0 { out.append(UInt8(ascii: ",")) }
      out.append(Self.quoted(key))
      out.append(UInt8(ascii: ":"))
      out.append(fields[key]!)
    }
    out.append(UInt8(ascii: "}"))
    return out
  }

  /// The keys whose values differ between `self` and `other`, including keys only one has.
  func changedKeys(comparedTo other: StoredDocument) -> Set<String> {
    var keys = Set<String>()
    for (key, value) in fields where other.fields[key] != value { keys.insert(key) }
    for key in other.fields.keys where fields[key] == nil { keys.insert(key) }
    return keys
  }

  private static func quoted(_ key: String) -> Data {
    // JSONEncoder escapes a lone string exactly as it escapes keys.
    (try? JSONEncoder().encode(key)) ?? Data("\"\"".utf8)
  }

  /// Why stored bytes are not one JSON value.
  struct Malformed: Error, CustomStringConvertible {
    /// The byte offset where scanning stopped.
    let offset: Int
    let reason: String
    var description: String { "not JSON at byte \(offset): \(reason)" }
  }
}

/// Scans JSON text just enough to find the extent of each value (no numbers or
/// strings are converted, except the top-level keys).
private struct JSONScanner {
  let bytes: [UInt8]
  var position = 0

  init(bytes: [UInt8]) {
    self.bytes = bytes
  }

  var isAtEnd: Bool { position >= bytes.count }

  func peek() -> UInt8? { isAtEnd ? nil : bytes[position] }

  mutating func skipWhitespace() {
    while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
  }

  mutating func expect(_ byte: UInt8) throws(StoredDocument.Malformed) {
    guard peek() == byte else { throw failure("expected '\(Character(UnicodeScalar(byte)))'") }
    position += 1
  }

  func failure(_ reason: String) -> StoredDocument.Malformed {
    StoredDocument.Malformed(offset: position, reason: reason)
  }

  /// The members of the object starting here, each value as its exact bytes.
  mutating func objectFields() throws(StoredDocument.Malformed) -> [String: Data] {
    try expect(UInt8(ascii: "{"))
    var fields: [String: Data] = [:]
    skipWhitespace()
    if peek() == UInt8(ascii: "}") {
      position += 1
      return fields
    }
    while true {
      skipWhitespace()
      let keyStart = position
      try skipString()
      guard let key = try? JSONDecoder().decode(String.self, from: Data(bytes[keyStart..<position])) else {
        throw StoredDocument.Malformed(offset: keyStart, reason: "a key that is not a valid string")
      }
      skipWhitespace()
      try expect(UInt8(ascii: ":"))
      skipWhitespace()
      let valueStart = position
      try skipValue()
      fields[key] = Data(bytes[valueStart..<position])  // a repeated key: the last one wins (see the type's rules)
      skipWhitespace()
      switch peek() {
      case UInt8(ascii: ","): position += 1
      case UInt8(ascii: "}"):
        position += 1
        return fields
      default: throw failure("expected ',' or '}'")
      }
    }
  }

  /// Moves past one value of any kind.
  mutating func skipValue() throws(StoredDocument.Malformed) {
    // Nesting is tracked with a stack of closers, so deep documents don't recurse.
    var closers: [UInt8] = []
    repeat {
      skipWhitespace()
      guard let byte = peek() else { throw failure("unexpected end") }
      switch byte {
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        position += 1
        closers.append(byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]"))
        skipWhitespace()
        if peek() == closers.last {
          position += 1
          closers.removeLast()
        } else if byte == UInt8(ascii: "{") {
          try skipMemberKey()
          continue
        } else {
          continue  // the first element
        }
      case UInt8(ascii: "\""): try skipString()
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try skipNumber()
      case UInt8(ascii: "t"): try skipLiteral("true")
      case UInt8(ascii: "f"): try skipLiteral("false")
      case UInt8(ascii: "n"): try skipLiteral("null")
      default: throw failure("unexpected character")
      }
      // After a complete value: close containers, or move to the next element.
      while let closer = closers.last {
        skipWhitespace()
        if peek() == closer {
          position += 1
          closers.removeLast()
        } else if peek() == UInt8(ascii: ",") {
          position += 1
          if closer == UInt8(ascii: "}") { try skipMemberKey() }
          break
        } else {
          throw failure("expected ',' or '\(Character(UnicodeScalar(closer)))'")
        }
      }
    } while !closers.isEmpty
  }

  /// Moves past `"key":` inside an object.
  private mutating func skipMemberKey() throws(StoredDocument.Malformed) {
    skipWhitespace()
    try skipString()
    skipWhitespace()
    try expect(UInt8(ascii: ":"))
  }

  private mutating func skipString() throws(StoredDocument.Malformed) {
    try expect(UInt8(ascii: "\""))
    while let byte = peek() {
      position += 1
      switch byte {
      case UInt8(ascii: "\""): return
      case UInt8(ascii: "\\"):
        guard !isAtEnd else { throw failure("unterminated escape") }
        position += 1
      case 0..<0x20: throw failure("a control character in a string")
      default: break
      }
    }
    throw failure("unterminated string")
  }

  /// Moves past a number, as JSON's grammar has it: `-? (0 | [1-9][0-9]*) (. [0-9]+)?
  /// ([eE] [+-]? [0-9]+)?`. Its magnitude is not checked: `1e400` is well-formed JSON
  /// (that no `Double` holds), a matter for the model's decoding.
  private mutating func skipNumber() throws(StoredDocument.Malformed) {
    func digits() -> Int {
      let start = position
      while let byte = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { position += 1 }
      return position - start
    }
    if peek() == UInt8(ascii: "-") { position += 1 }
    if peek() == UInt8(ascii: "0") {
      position += 1
    } else if digits() == 0 {
      throw failure("a malformed number")
    }
    if peek() == UInt8(ascii: ".") {
      position += 1
      guard digits() > 0 else { throw failure("a malformed number") }
    }
    if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
      position += 1
      if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { position += 1 }
      guard digits() > 0 else { throw failure("a malformed number") }
    }
  }

  private mutating func skipLiteral(_ literal: String) throws(StoredDocument.Malformed) {
    let expected = Array(literal.utf8)
    let count = expected.count
    let matches = position + count <= bytes.count && bytes[position..<position + count].elementsEqual(expected)
    guard matches else { throw failure("an unknown literal") }
    position += count
  }
}
