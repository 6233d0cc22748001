/// The names the macros emit; one place, so expansions and runtime stay in step.
enum Names {
  static let module = "Tracking"
  static let conformance = "Trackable"
  static let registrarType = "TrackingRegistrar"
  static let registrarVariable = "_$trackingRegistrar"
  static let trackedMacro = "TrackedProperty"
  static let ignoredMacro = "TrackingIgnored"
  static let externalMacro = "TrackedExternally"
  static let qualifiedRegistrar = "\(module).\(registrarType)"
  static let qualifiedConformance = "\(module).\(conformance)"

  /// The names `@TrackedState` emits.
  enum state {
    static let registrarVariable = "_$stateRegistrar"
    static let propertyMacro = "TrackedStateProperty"
    static let qualifiedRegistrar = "\(Names.module).StateRegistrar"
    static let qualifiedIdentity = "\(Names.module).StateIdentity"
    static let valueConformance = "\(Names.module).TrackedStateValue"
    static let identifiableConformance = "\(Names.module).StateIdentifiable"
  }
}
