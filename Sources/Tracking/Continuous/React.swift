/// Runs `effect` with the value of `value` each time that value changes, as `equals`
/// judges it, until the returned token is cancelled or released: MobX's `reaction`.
///
/// ```swift
/// token = react(to: { cart.items.count }) { count in badge.text = "\(count)" }
/// ```
///
/// - `value` is tracked, and re-evaluated after each change of what it read (in the
///   changed property's `didSet`, as ``observe(fileID:line:_:)``); `effect` is not
///   tracked, so what it reads does not re-run anything.
/// - `effect` runs only when the new value differs from the previous one by `equals`
///   (`==` when the value is `Equatable` and no rule is given); with `fireImmediately`
///   it also runs with the first value.
/// - Both closures run on the caller's actor.
///
/// - Parameters:
///   - value: Computes the value to watch, tracked.
///   - equals: Whether two values are the same (no call of `effect`).
///   - fireImmediately: Whether `effect` runs with the first value too.
///   - fileID: Where the reaction is started, for the leak check (filled in for you).
///   - line: The line of the call (filled in for you).
///   - effect: What to do with a new value, untracked.
/// - Returns: The token that keeps the reaction alive.
public func react<Value: Sendable>(
  @_inheritActorContext to value: @escaping @isolated(any) @Sendable () -> Value,
  equals: @escaping @Sendable (Value, Value) -> Bool,
  fireImmediately: Bool = false,
  fileID: StaticString = #fileID, line: UInt = #line,
  @_inheritActorContext _ effect: @escaping @isolated(any) @Sendable (Value) -> Void
) -> TrackingToken {
  precondition(
    value.isolation === effect.isolation, "react(to:equals:_:) needs its two closures on the same actor")
  return Reaction.watch(
    on: value.isolation, { callOnItsActor(value, checked: false) }, site: SourceSite(fileID: fileID, line: line)
  ) { old, new in
    if let old {
      guard !equals(old, new) else { return }
    } else {
      guard fireImmediately else { return }
    }
    callOnItsActor(effect, new)
  }
}

/// ``react(to:equals:fireImmediately:fileID:line:_:)`` comparing values with `==`.
///
/// - Parameters:
///   - value: Computes the value to watch, tracked.
///   - fireImmediately: Whether `effect` runs with the first value too.
///   - fileID: Where the reaction is started, for the leak check (filled in for you).
///   - line: The line of the call (filled in for you).
///   - effect: What to do with a new value, untracked.
/// - Returns: The token that keeps the reaction alive.
public func react<Value: Sendable & Equatable>(
  @_inheritActorContext to value: @escaping @isolated(any) @Sendable () -> Value,
  fireImmediately: Bool = false,
  fileID: StaticString = #fileID, line: UInt = #line,
  @_inheritActorContext _ effect: @escaping @isolated(any) @Sendable (Value) -> Void
) -> TrackingToken {
  react(to: value, equals: ==, fireImmediately: fireImmediately, fileID: fileID, line: line, effect)
}

extension Reaction {
  /// The one engine of "watch a value, act on its changes" (`react`, `onChange(of:)`):
  /// evaluates `value` tracked on `isolation` (only ever called there), now and after
  /// each change of what it read, and calls `handle` untracked with the value the
  /// previous run saw (`nil` the first time) and the new one.
  static func watch<Value: Sendable>(
    on isolation: (any Actor)?, _ value: @escaping @Sendable () -> Value, site: SourceSite?,
    handle: @escaping @Sendable (_ old: Value?, _ new: Value) -> Void
  ) -> TrackingToken {
    // Only touched by the runs, which happen one at a time on `value`'s isolation: the
    // unchecked box is sound.
    let previous = UncheckedSendable(Box<Value?>(nil))
    return observe(
      options: .didSet, delivery: .immediate, firstRun: .immediate,
      body: .onIsolation(isolation) { _ in
        let new = value()
        WholeValueReads.record(new)  // an element edit of a tracked collection counts
        let old = previous.value.value
        previous.value.value = new
        withoutTracking { handle(old, new) }
      },
      site: site)
  }
}
