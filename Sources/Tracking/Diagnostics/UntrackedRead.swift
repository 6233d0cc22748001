/// A read of a tracked property made outside any tracking, inside a region that
/// requires tracking (see ``withTrackingRequired(fileID:filePath:line:column:_:)``).
///
/// Such a read is almost always a bug: code that must re-run when the property changes
/// (a view body, a render function) read it where no tracking records it.
public struct UntrackedRead: Sendable, Hashable, CustomStringConvertible {
  /// Where a required region was entered: the `withTrackingRequired` call.
  public struct Location: Sendable, Hashable, CustomStringConvertible {
    /// The file's module-qualified name (`#fileID`).
    public let fileID: String
    /// The file's full path (`#filePath`).
    public let filePath: String
    /// The line of the call.
    public let line: Int
    /// The column of the call.
    public let column: Int

    /// Creates a location.
    public init(fileID: String, filePath: String, line: Int, column: Int) {
      self.fileID = fileID
      self.filePath = filePath
      self.line = line
      self.column = column
    }

    /// `fileID:line:column`.
    public var description: String { "\(fileID):\(line):\(column)" }
  }

  /// The name of the type whose property was read, such as `Article`.
  public let typeName: String
  /// The property: its name where the macro knows it, else its key path as the
  /// platform prints it (on Linux a key path to a computed property prints without
  /// its name).
  public let propertyName: String
  /// The `withTrackingRequired` call whose region the read happened in, when known.
  public let location: Location?

  /// Creates a report; the runtime makes these.
  public init(typeName: String, propertyName: String, location: Location?) {
    self.typeName = typeName
    self.propertyName = propertyName
    self.location = location
  }

  /// A sentence saying what was read, where, and what to do about it.
  public var description: String {
    let subject =
      propertyName.contains("<computed")
      ? "A tracked property of '\(typeName)' (\(propertyName))"
      : "Tracked property '\(propertyName)' of '\(typeName)'"
    return """
      \(subject) was read outside of tracking, in code that requires it \
      (withTrackingRequired\(location.map { " at \($0)" } ?? "")). Changes to it will not be \
      observed; read it inside 'withTracking', or in 'withoutTracking' if the read is deliberate.
      """
  }
}
