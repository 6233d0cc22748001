/// Which events a tracking asks for: the equivalent of Apple's
/// `ObservationTracking.Options` (SE-0506).
///
/// ```swift
/// withTracking(options: [.willSet, .didSet]) { _ = model.count } onChange: { event in
///   print(event.kind)   // willSet, then didSet, for the first change
/// }
/// ```
///
/// - ``willSet``: before the first change of a property the tracking read (the object
///   still holds the old value). A tracking with only `willSet` ends there.
/// - ``didSet``: after that change (the object holds the new value). A tracking with
///   `didSet` ends after its first `didSet`, so `[.willSet, .didSet]` delivers one
///   `willSet` and then one `didSet` for one mutation.
/// - ``deinit``: when an object the tracking read is deallocated. Delivered once per
///   tracking per object (per class level whose properties were read, for an instance of
///   a tracked subclass: each level has its own registrar, as with Apple's), on the
///   deallocating thread; it does not end the tracking of the other objects it read. A
///   tracking that has already ended, at its `willSet` or `didSet`, hears of no
///   deallocation: Apple's shipped code cancels it whole there (SE-0506's text shows a
///   deinit event after a `didSet`; we follow the shipped code).
///
/// Empty options install nothing: the tracking never fires.
public struct TrackingOptions: SetAlgebra, Hashable, Sendable, ExpressibleByArrayLiteral {
  private var bits: UInt8

  private init(bits: UInt8) { self.bits = bits }

  /// No events.
  public init() { bits = 0 }

  /// The options listed.
  public init(arrayLiteral elements: TrackingOptions...) {
    bits = elements.reduce(0) { $0 | $1.bits }
  }

  /// Before a property the tracking read changes.
  public static let willSet = TrackingOptions(bits: 1)
  /// After a property the tracking read changed.
  public static let didSet = TrackingOptions(bits: 2)
  /// When an object the tracking read is deallocated.
  public static let `deinit` = TrackingOptions(bits: 4)

  /// Whether the options include every option in `member`.
  public func contains(_ member: TrackingOptions) -> Bool { bits & member.bits == member.bits }
  /// The options in either set.
  public func union(_ other: TrackingOptions) -> TrackingOptions { TrackingOptions(bits: bits | other.bits) }
  /// The options in both sets.
  public func intersection(_ other: TrackingOptions) -> TrackingOptions { TrackingOptions(bits: bits & other.bits) }
  /// The options in exactly one of the sets.
  public func symmetricDifference(_ other: TrackingOptions) -> TrackingOptions {
    TrackingOptions(bits: bits ^ other.bits)
  }

  /// Adds `newMember`; returns whether it was new, and the member.
  @discardableResult
  public mutating func insert(_ newMember: TrackingOptions) -> (inserted: Bool, memberAfterInsert: TrackingOptions) {
    let inserted = !contains(newMember)
    bits |= newMember.bits
    return (inserted, newMember)
  }

  /// Removes `member`; returns it if it was there.
  @discardableResult
  public mutating func remove(_ member: TrackingOptions) -> TrackingOptions? {
    let present = intersection(member)
    bits &= ~member.bits
    return present.isEmpty ? nil : present
  }

  /// Adds `newMember`; returns the options it replaced, if any were there.
  @discardableResult
  public mutating func update(with newMember: TrackingOptions) -> TrackingOptions? {
    let present = intersection(newMember)
    bits |= newMember.bits
    return present.isEmpty ? nil : present
  }

  /// Adds the options of `other`.
  public mutating func formUnion(_ other: TrackingOptions) { bits |= other.bits }
  /// Keeps only the options also in `other`.
  public mutating func formIntersection(_ other: TrackingOptions) { bits &= other.bits }
  /// Keeps the options in exactly one of the sets.
  public mutating func formSymmetricDifference(_ other: TrackingOptions) { bits ^= other.bits }
}

extension TrackingOptions: CustomStringConvertible {
  /// The options, as an array literal: `[.willSet, .didSet]`.
  public var description: String {
    let names = [(Self.willSet, ".willSet"), (Self.didSet, ".didSet"), (Self.deinit, ".deinit")]
    return "[" + names.filter { contains($0.0) }.map(\.1).joined(separator: ", ") + "]"
  }
}
