#if canImport(Combine) || OpenCombine
#if canImport(Combine)
  import Combine
#else
  import OpenCombine
#endif
import Tracking

extension ObservableObject {
  /// Makes the current tracking scope depend on this object: the scope's tracking fires
  /// when the object's `objectWillChange` emits. Outside a tracking scope it does nothing.
  ///
  /// `@Published` reads cannot be seen by our tracking, so a scope that reads a legacy
  /// model says so. This lets an app migrate one model at a time to ``Trackable()``
  /// while views and observations mix both kinds:
  ///
  /// ```swift
  /// withTracking {
  ///   legacySettings.track()                     // an ObservableObject
  ///   render(legacySettings.theme, cart.items)   // cart is @Trackable
  /// } onChange: {
  ///   setNeedsLayout()                           // runs when either one changes
  /// }
  /// ```
  ///
  /// Everything built on tracking sees the dependency: `withTracking`, `observe`,
  /// `TrackedValues`, `RenderLoop`, ``TrackingPublisher``.
  ///
  /// - The dependency is on the whole object (that is all `objectWillChange` says), so
  ///   any `@Published` change fires it, whichever property the scope read.
  /// - `objectWillChange` emits *before* the new value is stored, and the scope's
  ///   `willSet` and `didSet` callbacks both run then. Callbacks that re-read at once
  ///   (`observe`, `didSet:`, a `.didSet` publisher) therefore see the old value of
  ///   the legacy property; ones that re-read later (`withTracking(_:onChange:)`
  ///   followed by a re-render, `TrackedValues`, `observeCoalesced`, a render loop
  ///   cycle) see the new one.
  /// - The first call for an object subscribes to its `objectWillChange`; the
  ///   subscription and its bookkeeping are released with the object. This relies on
  ///   the object keeping its publisher, as the synthesized `objectWillChange` of a
  ///   class with `@Published` properties does (and a stored publisher does).
  /// - Nothing here keeps the object alive.
  public func track() {
    guard isInsideTracking else { return }
    ChangeBeacons.beacon(for: self).version
  }

  /// This object, after making the current tracking scope depend on it (see
  /// ``track()``), for reading in one expression: `legacy.tracked.title`.
  public var tracked: Self {
    track()
    return self
  }
}
#endif
