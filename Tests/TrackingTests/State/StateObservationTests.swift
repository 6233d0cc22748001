import Testing
@_spi(Testing) @testable import Tracking

/// The shortcuts a store's commit takes for speed: an observation's storage read
/// without a retain, changes held unretained, write stamps absent until needed.
@Suite struct StateObservationTests {
  /// A state value's observation is the registrar storage of its fields itself, with
  /// the owner word after the storage's own words: claiming leaves the storage's masks
  /// alone, and the storage's observers are the value's.
  @Test func anObservationIsItsFieldsStorage() {
    let registrar = StateRegistrar()
    let observation = registrar.observation
    #expect(observation.registrar.storage === observation)
    #expect(observation.capacity >= 2)
    let first = StateStore(Feature())
    let second = StateStore(Feature())
    var value = first.state
    #expect(!value._$stateRegistrar.observation.hasReaders)
    // A value the first store claimed gets a new identity in the second.
    second.mutate { $0 = value }
    #expect(!second.state._$stateRegistrar.isSame(as: value._$stateRegistrar))
    value.count = 1
    #expect(first.state._$stateRegistrar.isSame(as: value._$stateRegistrar))
  }

  /// Every read through a store records the root (property 63) with the field, on
  /// the root value's observation: a tracking of one field is still one observer held
  /// alone there, with no array of entries, and it hears exactly that field and a new
  /// root.
  @Test func aFieldReadThroughAStoreIsOneObserverAlone() {
    let store = StateStore(Feature())
    let storage = store.state._$stateRegistrar.observation.registrar.storage
    let events = Events()
    withTracking { _ = store.count } onChange: { events("count") }
    #expect(storage.holdsOneObserverAlone)
    #expect(storage.observes(StateObservation.rootID))
    store.mutate { $0.title = "other" }
    #expect(events.all.isEmpty)
    store.mutate { $0.count += 1 }
    #expect(events.all == ["count"])

    withTracking { _ = store.title } onChange: { events("root") }
    #expect(storage.holdsOneObserverAlone)
    store.mutate { $0 = Feature() }
    #expect(events.all == ["count", "root"])
  }

  /// The first change of a commit is held unretained: it must stay valid even when a
  /// `willSet` callback breaks the rule and mutates the store during the commit (the
  /// inner mutation is then lost, as documented, but nothing else goes wrong). Here the
  /// inner mutation replaces the whole root, so that while the outer commit delivers,
  /// only its mutated copy still holds the observation the change was recorded on.
  @Test func aMutationFromAWillSetCallbackDoesNotInvalidateTheCommit() {
    let store = StateStore(Feature())
    let box = UncheckedBox(store)
    let events = Events()
    withTracking { _ = store.count } willSet: { _ in
      box.value.mutate { $0 = Feature() }  // a new root: a new identity
      events("will")
    }
    withTracking { _ = store.count } didSet: { _ in events("did \(box.value.count)") }
    store.mutate { $0.count = 1 }
    #expect(events.all == ["will", "did 1"])
    #expect(store.count == 1)
  }

  /// A value whose fields are all comparable never gets write stamps, and a write of
  /// an incomparable field gives that field, and only it, a stamp.
  @Test func writeStampsAppearOnlyWhenAnIncomparableFieldIsWritten() {
    var value = Loadable(value: 1)
    #expect(value._$stateRegistrar.stamps == nil)
    value.isLoading = true
    #expect(value._$stateRegistrar.stamps == nil)
    let copy = value
    value.value = 2
    #expect(copy._$stateRegistrar.stamps == nil)
    let stamps = value._$stateRegistrar.stamps ?? []
    #expect(stamps.count == 1 && stamps[0] != 0)
  }
}
