/// The names the macros emit; one place, so expansions and runtime stay in step.
enum Names {
  static let module = "Tracking"
  static let conformance = "Trackable"
  static let registrarType = "TrackingRegistrar"
  static let registrarVariable = "_$trackingRegistrar"
  static let propertyNamesVariable = "_$trackedPropertyNames"
  static let trackedMacro = "TrackedProperty"
  static let ignoredMacro = "TrackingIgnored"
  static let externalMacro = "TrackedExternally"
  static let wrapper = "Tracked"
  static let lazyWrapper = "TrackedLazy"
  static let equalityMacro = "TrackedEquality"
  static let qualifiedRegistrar = "\(module).\(registrarType)"
  static let qualifiedConformance = "\(module).\(conformance)"
  /// Apple's `Observation.Observable`, under a name the `Tracking` module declares, so
  /// that expansions compile in files that do not import `Observation` (and, where
  /// `Observation` does not exist, name a placeholder protocol).
  static let qualifiedAppleObservable = "\(module).TrackingInterop.AppleObservable"
  /// The availability of Apple's `Observation` module (its `SwiftStdlib 5.9`).
  static let appleObservationAvailability = "@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)"

  /// The names `@TrackedState` emits.
  enum state {
    static let registrarVariable = "_$stateRegistrar"
    static let propertyMacro = "TrackedStateProperty"
    static let qualifiedRegistrar = "\(Names.module).StateRegistrar"
    static let valueConformance = "\(Names.module).TrackedStateValue"
    static let identifiableConformance = "\(Names.module).StateIdentifiable"
    static let qualifiedChanges = "\(Names.module).StateChanges"
    static let qualifiedOwner = "\(Names.module).StateOwner"
  }
}
