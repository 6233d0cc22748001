import Observation
import Tracking

// The shapes of class that Apple's tests of `@Observable` (swiftlang/swift,
// test/stdlib/Observation/Observable.swift) build, written once with Apple's macro and
// once with ours, so that the parity scenarios can run the same script on both.

/// An object that parity models point at weakly or unowned; it logs its deinit, so a
/// scenario can see whether a model kept it alive.
final class Friend: @unchecked Sendable {
  let name: String
  private let log: EventLog?
  init(_ name: String, log: EventLog? = nil) {
    self.name = name
    self.log = log
  }
  deinit { log?("deinit \(name)") }
}

/// Apple's `ContainsWeak`, `ContainsUnowned` and `ContainsIUO` in one class, plus a
/// member declared inside `#if`.
protocol ParityHolder: AnyObject, Sendable {
  var friend: Friend? { get set }
  var owner: Friend { get set }
  var count: Int! { get set }
  var conditional: Int { get set }
  init(owner: Friend)
}

/// Apple's `ImplementsAccessAndMutation`: the class's own `access`/`withMutation` log
/// the property they are called for, then forward to the registrar.
protocol ParityLogged: AnyObject, Sendable {
  var field: Int { get set }
  init(log: EventLog)
}

/// Apple's `Entity` → `Person` → `MiddleNamePerson` chain, each level tracked.
protocol ParityPerson: AnyObject, Sendable {
  var age: Int { get set }
  var firstName: String { get set }
  var middleName: String { get set }
  var fullName: String { get }
  var firstFriendsFullName: String? { get }
  func befriend(_ other: AnyObject)
  init()
}

/// The parity models of one implementation of tracking.
protocol ParityFlavor: TrackingFlavor {
  associatedtype Holder: ParityHolder
  associatedtype Logged: ParityLogged
  associatedtype Person: ParityPerson
}

/// The key path's property name, for logs (key paths print without names on Linux).
func fieldName<Root>(_ keyPath: PartialKeyPath<Root>, _ field: PartialKeyPath<Root>) -> String {
  keyPath == field ? "field" : "other"
}

// MARK: Apple

@Observable final class AppleHolder: ParityHolder, @unchecked Sendable {
  weak var friend: Friend?
  unowned var owner: Friend
  var count: Int! = nil
  #if os(Linux) || os(macOS) || os(iOS)
    var conditional = 1
  #else
    var conditional = 1
  #endif
  init(owner: Friend) { self.owner = owner }
}

@Observable final class AppleLogged: ParityLogged, @unchecked Sendable {
  var field = 3
  let log: EventLog
  init(log: EventLog) { self.log = log }

  internal func access<Member>(keyPath: KeyPath<AppleLogged, Member>) {
    log("access \(fieldName(keyPath, \AppleLogged.field))")
    _$observationRegistrar.access(self, keyPath: keyPath)
  }

  internal func withMutation<Member, Result>(
    keyPath: KeyPath<AppleLogged, Member>, _ mutation: () throws -> Result
  ) rethrows -> Result {
    log("withMutation \(fieldName(keyPath, \AppleLogged.field))")
    return try _$observationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
  }
}

@Observable class AppleEntity: @unchecked Sendable {
  var age = 0
  required init() {}
}

@Observable class ApplePerson: AppleEntity, @unchecked Sendable {
  var firstName = ""
  var lastName = ""
  var friends: [ApplePerson] = []
  var fullName: String { firstName + " " + lastName }
}

@Observable final class AppleMiddleNamePerson: ApplePerson, ParityPerson, @unchecked Sendable {
  var middleName = ""
  override var fullName: String { firstName + " " + middleName + " " + lastName }
  var firstFriendsFullName: String? { friends.first?.fullName }
  func befriend(_ other: AnyObject) { friends.append(other as! ApplePerson) }
}

extension AppleFlavor: ParityFlavor {
  typealias Holder = AppleHolder
  typealias Logged = AppleLogged
  typealias Person = AppleMiddleNamePerson
}

// MARK: Ours

@Trackable final class OurHolder: ParityHolder, @unchecked Sendable {
  weak var friend: Friend?
  unowned var owner: Friend
  var count: Int! = nil
  #if os(Linux) || os(macOS) || os(iOS)
    var conditional = 1
  #else
    var conditional = 1
  #endif
  init(owner: Friend) { self.owner = owner }
}

@Trackable final class OurLogged: ParityLogged, @unchecked Sendable {
  var field = 3
  let log: EventLog
  init(log: EventLog) { self.log = log }

  internal func access<Member>(keyPath: KeyPath<OurLogged, Member>) {
    log("access \(fieldName(keyPath, \OurLogged.field))")
    _$trackingRegistrar.access(self, keyPath: keyPath)
  }

  internal func withMutation<Member, Result>(
    keyPath: KeyPath<OurLogged, Member>, _ mutation: () throws -> Result
  ) rethrows -> Result {
    log("withMutation \(fieldName(keyPath, \OurLogged.field))")
    return try _$trackingRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
  }
}

@Trackable class OurEntity: @unchecked Sendable {
  var age = 0
  required init() {}
}

@Trackable class OurPerson: OurEntity, @unchecked Sendable {
  var firstName = ""
  var lastName = ""
  var friends: [OurPerson] = []
  var fullName: String { firstName + " " + lastName }
}

@Trackable final class OurMiddleNamePerson: OurPerson, ParityPerson, @unchecked Sendable {
  var middleName = ""
  override var fullName: String { firstName + " " + middleName + " " + lastName }
  var firstFriendsFullName: String? { friends.first?.fullName }
  func befriend(_ other: AnyObject) { friends.append(other as! OurPerson) }
}

extension OurFlavor: ParityFlavor {
  typealias Holder = OurHolder
  typealias Logged = OurLogged
  typealias Person = OurMiddleNamePerson
}
