import Testing

/// Apple's own tests of `@Observable` (swiftlang/swift,
/// test/stdlib/Observation/Observable.swift), retold as scripts that run once against
/// Apple's macro and once against ours: weak, unowned and implicitly unwrapped
/// properties, a class's own `access`/`withMutation`, members inside `#if`, and a
/// three-level tracked class hierarchy. As in `DifferentialTests`, both logs must equal
/// the expected log written here (so a script that silently logs nothing cannot pass).
enum ParityScenario: String, CaseIterable, CustomTestStringConvertible {
  case weakWriteFires, weakSameObjectAgain, weakReleaseFiresNothing, weakHoldsNothingAlive,
    unownedWriteFires, implicitlyUnwrappedWriteFires, memberInsideIfConfigIsTracked,
    ownAccessOnRead, ownWithMutationOnWrite, ownMethodsSkipAnEqualWrite, ownAccessOnInPlaceMutation,
    ownMethodsForwardTracking, ownMethodsForwardInPlaceTracking, subclassComputedProperty, subclassEqualWriteDoesNotFire,
    grandparentProperty, objectGraph

  var testDescription: String { rawValue }

  /// What Apple's module does, written down (checked against it by the tests below).
  var expected: [String] {
    switch self {
    case .weakWriteFires: ["apply friend=nil", "onChange friend=nil", "after friend=b"]
    case .weakSameObjectAgain: ["apply friend=a", "onChange friend=a", "after friend=a"]
    case .weakReleaseFiresNothing: ["apply friend=a", "deinit a", "after friend=nil"]
    case .weakHoldsNothingAlive: ["deinit a", "after friend=nil"]
    case .unownedWriteFires: ["apply owner=a", "onChange owner=a", "after owner=b"]
    case .implicitlyUnwrappedWriteFires: ["apply count=nil", "onChange count=nil", "after count=5"]
    case .memberInsideIfConfigIsTracked: ["apply 1", "onChange 1", "after 2"]
    case .ownAccessOnRead: ["access field", "read 3"]
    case .ownWithMutationOnWrite: ["withMutation field", "wrote"]
    case .ownMethodsSkipAnEqualWrite: ["wrote the same"]
    case .ownAccessOnInPlaceMutation: ["access field", "incremented"]
    case .ownMethodsForwardTracking: ["access field", "withMutation field", "onChange", "after"]
    case .ownMethodsForwardInPlaceTracking: ["access field", "access field", "onChange", "after"]
    case .subclassComputedProperty: ["apply", "onChange", "after"]
    case .subclassEqualWriteDoesNotFire: ["onChange", "after first", "after second"]
    case .grandparentProperty: ["onChange age=0", "after age=1"]
    case .objectGraph: ["apply length 2", "after own change", "onChange", "after friend's change"]
    }
  }

  func run<F: ParityFlavor>(_ flavor: F.Type) -> [String] {
    let log = EventLog()
    switch self {
    case .weakWriteFires:
      let owner = Friend("owner")
      let m = F.Holder(owner: owner)
      let b = Friend("b")
      F.track { log("apply friend=\(m.friend?.name ?? "nil")") } onChange: {
        log("onChange friend=\(m.friend?.name ?? "nil")")
      }
      m.friend = b
      log("after friend=\(m.friend?.name ?? "nil")")
    case .weakSameObjectAgain:
      let owner = Friend("owner")
      let m = F.Holder(owner: owner)
      let a = Friend("a")
      m.friend = a
      F.track { log("apply friend=\(m.friend?.name ?? "nil")") } onChange: {
        log("onChange friend=\(m.friend?.name ?? "nil")")
      }
      m.friend = a  // an optional of a non-Equatable class: not compared, so it notifies
      log("after friend=\(m.friend?.name ?? "nil")")
    case .weakReleaseFiresNothing:
      let owner = Friend("owner")
      let m = F.Holder(owner: owner)
      do {
        let a = Friend("a", log: log)
        m.friend = a
        F.track { log("apply friend=\(m.friend?.name ?? "nil")") } onChange: { log("onChange") }
      }
      log("after friend=\(m.friend?.name ?? "nil")")
    case .weakHoldsNothingAlive:
      let owner = Friend("owner")
      let m = F.Holder(owner: owner)
      F.track { _ = m.friend } onChange: {}
      m.friend = Friend("a", log: log)  // nothing else holds it: released at once
      log("after friend=\(m.friend?.name ?? "nil")")
    case .unownedWriteFires:
      let a = Friend("a")
      let b = Friend("b")
      let m = F.Holder(owner: a)
      F.track { log("apply owner=\(m.owner.name)") } onChange: { log("onChange owner=\(m.owner.name)") }
      m.owner = b
      log("after owner=\(m.owner.name)")
      withExtendedLifetime((a, b)) {}
    case .implicitlyUnwrappedWriteFires:
      let owner = Friend("owner")
      let m = F.Holder(owner: owner)
      F.track { log("apply count=\(m.count.map(String.init) ?? "nil")") } onChange: {
        log("onChange count=\(m.count.map(String.init) ?? "nil")")
      }
      m.count = 5
      log("after count=\(m.count!)")
    case .memberInsideIfConfigIsTracked:
      let owner = Friend("owner")
      let m = F.Holder(owner: owner)
      F.track { log("apply \(m.conditional)") } onChange: { log("onChange \(m.conditional)") }
      m.conditional = 2
      log("after \(m.conditional)")
    case .ownAccessOnRead:
      let m = F.Logged(log: log)
      log("read \(m.field)")
    case .ownWithMutationOnWrite:
      let m = F.Logged(log: log)
      m.field = 123
      log("wrote")
    case .ownMethodsSkipAnEqualWrite:
      let m = F.Logged(log: log)
      m.field = 3
      log("wrote the same")
    case .ownAccessOnInPlaceMutation:
      let m = F.Logged(log: log)
      m.field += 1
      log("incremented")
    case .ownMethodsForwardTracking:
      let m = F.Logged(log: log)
      F.track { _ = m.field } onChange: { log("onChange") }
      m.field = 4
      log("after")
    case .ownMethodsForwardInPlaceTracking:
      // The read names the property through the class's `access(keyPath:)`; the
      // in-place write must name it the same way for the tracking to fire.
      let m = F.Logged(log: log)
      F.track { _ = m.field } onChange: { log("onChange") }
      m.field += 1
      log("after")
    case .subclassComputedProperty:
      let p = F.Person()
      F.track { _ = p.fullName; log("apply") } onChange: { log("onChange") }
      p.middleName = "c"
      log("after")
    case .subclassEqualWriteDoesNotFire:
      let p = F.Person()
      F.track { _ = p.fullName } onChange: { log("onChange") }
      p.middleName = "c"
      log("after first")
      F.track { _ = p.fullName } onChange: { log("onChange again") }
      p.middleName = "c"
      log("after second")
    case .grandparentProperty:
      let p = F.Person()
      F.track { _ = p.age } onChange: { log("onChange age=\(p.age)") }
      p.age = 1
      log("after age=\(p.age)")
    case .objectGraph:
      let p = F.Person()
      let friend = F.Person()
      p.befriend(friend)
      F.track { log("apply length \(p.firstFriendsFullName?.count ?? -1)") } onChange: { log("onChange") }
      p.middleName = "c"
      log("after own change")
      friend.middleName = "c"
      log("after friend's change")
    }
    return log.events
  }
}

@Suite("Parity with Apple's @Observable: Apple's own test catalogue")
struct ParityDifferentialTests {
  @Test(arguments: ParityScenario.allCases)
  func sameEventsAsApple(_ scenario: ParityScenario) {
    let apple = scenario.run(AppleFlavor.self)
    let ours = scenario.run(OurFlavor.self)
    #expect(apple == scenario.expected, "Apple's module no longer behaves as written down")
    #expect(ours == scenario.expected)
  }
}
