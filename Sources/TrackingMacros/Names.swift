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
}
