/// Describes one change that fired a tracking: which object and which property.
///
/// Apple's `onChange` tells you only *that* something changed. Callbacks that take a
/// `TrackedChange` also learn *what* changed, and can read its value: during a
/// `willChange` callback the object still holds the old value; during a `didChange`
/// callback it holds the new one.
///
/// ```swift
/// withTracking { _ = model.count } didChange: { change in
///   if let count = change.value(of: \Model.count) { print("count is now", count) }
/// }
/// ```
public struct TrackedChange: @unchecked Sendable {
  /// The object whose property changed; `nil` when the change was reported by Apple's
  /// `Observation` module (see ``TrackingInterop``), which does not say.
  public let subject: AnyObject?
  /// The key path of the property that changed, or `nil` for a property the object's
  /// registrar knows only by identifier.
  public let keyPath: AnyKeyPath?
  /// The property's identifier in the object's registrar.
  public let propertyID: Int

  /// Creates a change description. The runtime makes these; you only need this
  /// initializer to drive your own callbacks in tests.
  public init(subject: AnyObject?, keyPath: AnyKeyPath?, propertyID: Int) {
    self.subject = subject
    self.keyPath = keyPath
    self.propertyID = propertyID
  }

  /// The property's current value when this change concerns `keyPath`, else `nil`.
  ///
  /// Reading happens now, so in a `didChange` callback you get the new value and in a
  /// `willChange` callback the old one.
  public func value<Root: AnyObject, Value>(of keyPath: KeyPath<Root, Value>) -> Value? {
    guard self.keyPath == keyPath, let root = subject as? Root else { return nil }
    return root[keyPath: keyPath]
  }

  /// Whether this change concerns `keyPath` of `object`.
  public func isChange<Root: AnyObject, Value>(of object: Root, _ keyPath: KeyPath<Root, Value>) -> Bool {
    subject === object && self.keyPath == keyPath
  }
}
