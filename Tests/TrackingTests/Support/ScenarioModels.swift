import Observation
@_spi(Testing) import Tracking

/// The shape both model flavors share, so one scenario script drives either.
protocol ScenarioModel: AnyObject, Sendable {
  var a: Int { get set }
  var b: String { get set }
  var items: [Int] { get set }
  var ignored: Int { get set }
  var ref: Box { get set }
  var watched: Int { get set }
  var optional: Int? { get set }
  var doubled: Int { get }
  var constant: Int { get }
  init(log: EventLog)
}

protocol ScenarioSubclass: ScenarioModel {
  var extra: Int { get set }
}

/// One implementation of tracking: Apple's, or ours.
protocol TrackingFlavor {
  associatedtype Model: ScenarioModel
  associatedtype Subclass: ScenarioSubclass
  static var name: String { get }
  static func track<T>(_ apply: () -> T, onChange: @escaping @Sendable () -> Void) -> T
}

// MARK: Apple

@Observable class AppleModel: ScenarioModel, @unchecked Sendable {
  @ObservationIgnored let log: EventLog
  var a = 0
  var b = "b0"
  var items: [Int] = []
  @ObservationIgnored var ignored = 0
  var ref = Box("first")
  var watched = 0 {
    willSet { log("watched willSet \(watched)->\(newValue)") }
    didSet { log("watched didSet \(oldValue)->\(watched)") }
  }
  var optional: Int? = nil
  var doubled: Int { a * 2 }
  let constant = 7
  required init(log: EventLog) { self.log = log }
}

@Observable final class AppleSubclass: AppleModel, ScenarioSubclass, @unchecked Sendable {
  var extra = 0
}

enum AppleFlavor: TrackingFlavor {
  typealias Model = AppleModel
  typealias Subclass = AppleSubclass
  static let name = "Apple"
  static func track<T>(_ apply: () -> T, onChange: @escaping @Sendable () -> Void) -> T {
    withObservationTracking(apply, onChange: onChange)
  }
}

// MARK: Ours

@Trackable class OurModel: ScenarioModel, @unchecked Sendable {
  @TrackingIgnored let log: EventLog
  var a = 0
  var b = "b0"
  var items: [Int] = []
  @TrackingIgnored var ignored = 0
  var ref = Box("first")
  var watched = 0 {
    willSet { log("watched willSet \(watched)->\(newValue)") }
    didSet { log("watched didSet \(oldValue)->\(watched)") }
  }
  var optional: Int? = nil
  var doubled: Int { a * 2 }
  let constant = 7
  required init(log: EventLog) { self.log = log }
}

@Trackable final class OurSubclass: OurModel, ScenarioSubclass, @unchecked Sendable {
  var extra = 0
}

enum OurFlavor: TrackingFlavor {
  typealias Model = OurModel
  typealias Subclass = OurSubclass
  static let name = "Tracking"
  static func track<T>(_ apply: () -> T, onChange: @escaping @Sendable () -> Void) -> T {
    withTracking(apply, onChange: onChange)
  }
}
