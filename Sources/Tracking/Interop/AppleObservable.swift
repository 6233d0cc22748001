#if canImport(Observation)
  import Observation
#endif

extension TrackingInterop {
  #if canImport(Observation)
    /// Apple's `Observation.Observable`, which ``Trackable()`` classes also conform to
    /// (with the availability of Apple's module), so that SwiftUI's `@Bindable`,
    /// `@Environment(Model.self)` and `.environment(model)` accept them.
    ///
    /// The macro names Apple's protocol through this alias so that its expansion
    /// compiles in files that import `Tracking` but not `Observation`. Conforming
    /// changes nothing by itself: Apple's tracking (and so SwiftUI) sees a tracked
    /// object's changes when ``relaysToAppleObservation`` is on, the default where
    /// SwiftUI exists.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    public typealias AppleObservable = Observation.Observable
  #else
    /// Stands in for Apple's `Observation.Observable` where the `Observation` module
    /// does not exist, so that ``Trackable()`` expansions compile everywhere. It has no
    /// requirements and nothing uses it.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    public protocol AppleObservable {}
  #endif
}
