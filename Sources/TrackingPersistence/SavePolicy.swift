/// When ``Persisted`` writes the changes it records: after every transaction, or
/// debounced or throttled, on the leading edge, the trailing edge or both.
///
/// Whatever the policy, nothing is lost: ``Persisted/flush()`` writes the latest state
/// at once, and so does the persisted model going away. A policy only decides how many
/// of the intermediate states are written while changes keep coming.
///
/// | policy | a burst of changes 10 ms apart for 1 s, interval 200 ms |
/// |---|---|
/// | ``immediate`` | one write per transaction (a synchronous burst is one transaction) |
/// | `debounce(…)` (trailing) | one write, 200 ms after the last change |
/// | `debounce(…, leading: true)` | a write at the first change, and one 200 ms after the last |
/// | `throttle(…)` (leading and trailing) | a write at the first change, then one every 200 ms while changes come, the last one included |
/// | `throttle(…, trailing: false)` | writes at most every 200 ms, each of the state at a change that opens a window |
///
/// With `trailing: false`, a state changed inside a window is written by the next
/// write (at the next change after the window) or by a flush; it is never dropped,
/// only kept waiting.
public struct SavePolicy: Sendable, Equatable, CustomStringConvertible {
  enum Mode: Sendable, Equatable {
    case immediate, debounce, throttle
  }

  let mode: Mode
  /// The interval in nanoseconds (0 for ``immediate``).
  let nanoseconds: UInt64
  /// Whether the first change of a burst (debounce) or of a window (throttle) is written at once.
  public let leading: Bool
  /// Whether the latest state is written when the burst settles (debounce) or the window ends (throttle).
  public let trailing: Bool

  init(mode: Mode, nanoseconds: UInt64, leading: Bool, trailing: Bool) {
    precondition(leading || trailing, "a save policy needs a leading edge, a trailing edge or both")
    self.mode = mode
    self.nanoseconds = nanoseconds
    self.leading = leading
    self.trailing = trailing
  }

  /// Writes after every transaction that changes the model: the default.
  public static let immediate = SavePolicy(mode: .immediate, nanoseconds: 0, leading: true, trailing: true)

  /// Writes once changes have stopped for `interval` (trailing edge), and optionally at
  /// the first change of a burst (leading edge).
  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  public static func debounce(_ interval: Duration, leading: Bool = false, trailing: Bool = true) -> SavePolicy {
    SavePolicy(mode: .debounce, nanoseconds: interval.nanoseconds, leading: leading, trailing: trailing)
  }

  /// Writes at most once per `interval`: at the first change of a window (leading edge)
  /// and with the latest state when the window ends (trailing edge).
  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  public static func throttle(_ interval: Duration, leading: Bool = true, trailing: Bool = true) -> SavePolicy {
    SavePolicy(mode: .throttle, nanoseconds: interval.nanoseconds, leading: leading, trailing: trailing)
  }

  /// ``debounce(_:leading:trailing:)`` with the interval in seconds, for systems without `Duration`.
  public static func debounce(seconds: Double, leading: Bool = false, trailing: Bool = true) -> SavePolicy {
    SavePolicy(mode: .debounce, nanoseconds: nanoseconds(seconds), leading: leading, trailing: trailing)
  }

  /// ``throttle(_:leading:trailing:)`` with the interval in seconds, for systems without `Duration`.
  public static func throttle(seconds: Double, leading: Bool = true, trailing: Bool = true) -> SavePolicy {
    SavePolicy(mode: .throttle, nanoseconds: nanoseconds(seconds), leading: leading, trailing: trailing)
  }

  /// The policy, for logs: `immediate`, `debounce 0.2 s (trailing)`, ….
  public var description: String {
    guard mode != .immediate else { return "immediate" }
    let edges = [leading ? "leading" : nil, trailing ? "trailing" : nil].compactMap { $0 }.joined(separator: ", ")
    return "\(mode) \(Double(nanoseconds) / 1e9) s (\(edges))"
  }

  private static func nanoseconds(_ seconds: Double) -> UInt64 {
    precondition(seconds >= 0 && seconds.isFinite, "a save interval is a finite number of seconds, not \(seconds)")
    return UInt64(seconds * 1e9)
  }
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension Duration {
  /// The duration in whole nanoseconds (negative durations count as zero).
  var nanoseconds: UInt64 {
    let (seconds, attoseconds) = components
    guard seconds >= 0 else { return 0 }
    return UInt64(seconds) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
  }
}
