/// The machinery every tracking API shares: collect the reads of `apply`, then install
/// one observer on every object that was read, and report a change that another thread
/// made while `apply` was reading.
///
/// Inlinable so that it is specialized for the caller's result type: unspecialized,
/// every scope paid for metadata-driven copies and witness calls (about a sixth of a
/// track + fire cycle).
///
/// - Returns: `apply`'s value and the installed observer (`nil` when `apply` read no
///   tracked property: then nothing is installed and `makeObserver` is never called).
@inlinable
package func track<T, Failure: Error>(
  _ apply: () throws(Failure) -> T,
  observer makeObserver: () -> TrackingObserver
) throws(Failure) -> (value: T, observer: TrackingObserver?) {
  if _slowPath(TrackingInterop.observesAppleObservables) {
    return try TrackingInterop.trackIncludingApple(apply, observer: makeObserver)
  }
  var list = AccessList()
  let value = try AccessList.collect(into: &list, apply)
  guard !list.isEmpty else { return (value, nil) }
  let observer = makeObserver()
  list.installReporting(observer)
  return (value, observer)
}

extension AccessList {
  /// Installs `observer` on every object read, then tells it at once if another thread
  /// changed one of them after this scope read it (before the install could see the
  /// change). A change made by this thread inside the scope does not count, as with
  /// Apple's tracking.
  ///
  /// `mutating` only so that the scope is passed in place: borrowed, the inlined
  /// caller copied all of it (some 150 bytes, `memcpy`) to pass it. Changes nothing.
  @usableFromInline
  package mutating func installReporting(_ observer: TrackingObserver) {
    install(observer)
    if changedElsewhere() { observer.notifyChangeDuringScope() }
  }
}

extension TrackingObserver {
  /// An observer for a tracking with `options` whose callback is `handler`
  /// (`nil` for options that ask for nothing, or a tracking that only wants deinit).
  @inlinable
  package static func make(options: TrackingOptions, handler: Handler) -> TrackingObserver {
    let deinitHandler = options.contains(.deinit) ? handler : nil
    switch (options.contains(.willSet), options.contains(.didSet)) {
    case (true, false): return make(kind: .willSetOnce, willSet: handler, didSet: nil, deinit: deinitHandler)
    case (false, true): return make(kind: .didSetOnce, willSet: nil, didSet: handler, deinit: deinitHandler)
    case (true, true): return make(kind: .willSetThenDidSet, willSet: handler, didSet: handler, deinit: deinitHandler)
    case (false, false):
      // Deinit only: stays installed (a deinit does not end a tracking) until cancelled.
      return make(kind: .deinitOnly, willSet: nil, didSet: nil, deinit: deinitHandler)
    }
  }
}
