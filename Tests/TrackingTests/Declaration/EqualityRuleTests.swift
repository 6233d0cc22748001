import Testing
@_spi(Testing) import Tracking

/// An `Equatable` class compared by content: equal instances are different objects.
final class ContentDocument: Equatable, @unchecked Sendable {
  var text: String
  init(_ text: String) { self.text = text }
  static func == (lhs: ContentDocument, rhs: ContentDocument) -> Bool { lhs.text == rhs.text }
}

struct RevisedRow: Equatable, Sendable {
  var revision: Int
  var note: String
}

struct Outline: Sendable {
  var points: [Int]
  static func isSameShape(_ a: Outline, _ b: Outline) -> Bool { a.points.count == b.points.count }
}

@Trackable final class EqualityRules: @unchecked Sendable {
  var byDefault = ContentDocument("a")
  @TrackedEquality(.identity) var byIdentity = ContentDocument("a")
  @TrackedEquality(.identity) var optionalByIdentity: ContentDocument? = nil
  @TrackedEquality(.always) var always = 0
  @TrackedEquality(.equality) var byEquality = 0
  @TrackedEquality(by: \RevisedRow.revision) var byRevision = RevisedRow(revision: 1, note: "")
  @TrackedEquality(using: Outline.isSameShape) var byShape = Outline(points: [1, 2])
}

/// How many times an observation of `read` ran after its first run, while `write` ran.
private func reRuns(_ read: @escaping @Sendable () -> Void, during write: () -> Void) -> Int {
  let runs = Locked(0)
  let token = observe {
    read()
    runs.withLock { $0 += 1 }
  }
  write()
  token.cancel()
  return runs.withLock { $0 } - 1
}

@Suite("@TrackedEquality: what counts as a change, per property")
struct EqualityRuleTests {
  @Test func byDefaultAnEqualObjectIsNoChange() {
    let model = EqualityRules()
    #expect(reRuns({ _ = model.byDefault }) { model.byDefault = ContentDocument("a") } == 0)
  }

  @Test func identityCountsANewEqualObject() {
    let model = EqualityRules()
    #expect(reRuns({ _ = model.byIdentity }) { model.byIdentity = ContentDocument("a") } == 1)
    let same = model.byIdentity
    #expect(reRuns({ _ = model.byIdentity }) { model.byIdentity = same } == 0)
    #expect(reRuns({ _ = model.optionalByIdentity }) { model.optionalByIdentity = nil } == 0)
    #expect(reRuns({ _ = model.optionalByIdentity }) { model.optionalByIdentity = ContentDocument("b") } == 1)
  }

  @Test func alwaysCountsEveryWrite() {
    let model = EqualityRules()
    #expect(reRuns({ _ = model.always }) { model.always = 0; model.always = 0 } == 2)
  }

  @Test func equalityIsTheDefaultSpelledOut() {
    let model = EqualityRules()
    #expect(reRuns({ _ = model.byEquality }) { model.byEquality = 0 } == 0)
    #expect(reRuns({ _ = model.byEquality }) { model.byEquality = 1 } == 1)
  }

  @Test func aKeyPathComparesThatPartOnly() {
    let model = EqualityRules()
    #expect(reRuns({ _ = model.byRevision }) { model.byRevision = RevisedRow(revision: 1, note: "ignored") } == 0)
    #expect(model.byRevision.note == "ignored")  // stored either way
    #expect(reRuns({ _ = model.byRevision }) { model.byRevision = RevisedRow(revision: 2, note: "") } == 1)
  }

  @Test func aFunctionDecides() {
    let model = EqualityRules()
    #expect(reRuns({ _ = model.byShape }) { model.byShape = Outline(points: [7, 8]) } == 0)
    #expect(reRuns({ _ = model.byShape }) { model.byShape = Outline(points: [1]) } == 1)
  }

  @Test func anInPlaceMutationAlwaysNotifies() {
    let model = EqualityRules()
    #expect(reRuns({ _ = model.byRevision }) { model.byRevision.note += "!" } == 1)
  }
}

@Trackable final class ExternalEqualityRules: @unchecked Sendable {
  @TrackedExternally(DefaultsValue(store: externalRuleDefaults, key: "row", defaultValue: RevisedRow(revision: 1, note: "")))
  @TrackedEquality(by: \RevisedRow.revision)
  var byRevision: RevisedRow
  @TrackedExternally(DefaultsValue(store: externalRuleDefaults, key: "document", defaultValue: ContentDocument("a")))
  @TrackedEquality(.identity)
  var byIdentity: ContentDocument
  @TrackedExternally(DefaultsValue(store: externalRuleDefaults, key: "ping", defaultValue: 0))
  @TrackedEquality(.always)
  var always: Int
  @TrackedExternally(DefaultsValue(store: externalRuleDefaults, key: "volume", defaultValue: 0.5))
  var byDefault: Double
}

private let externalRuleDefaults = FakeDefaults()

@Suite("@TrackedEquality on @TrackedExternally properties")
struct ExternalEqualityRuleTests {
  @Test func eachRuleDecidesAndAWriteItDoesNotCountIsStillStored() {
    let model = ExternalEqualityRules()
    #expect(reRuns({ _ = model.byRevision }) { model.byRevision = RevisedRow(revision: 1, note: "kept") } == 0)
    #expect(model.byRevision.note == "kept")  // stored, though not a change
    #expect(reRuns({ _ = model.byRevision }) { model.byRevision = RevisedRow(revision: 2, note: "") } == 1)

    #expect(reRuns({ _ = model.byIdentity }) { model.byIdentity = ContentDocument(model.byIdentity.text) } == 1)
    let same = model.byIdentity
    #expect(reRuns({ _ = model.byIdentity }) { model.byIdentity = same } == 0)

    let writesBefore = externalRuleDefaults.writes(forKey: "ping")
    #expect(reRuns({ _ = model.always }) { model.always = model.always; model.always = model.always } == 2)
    #expect(externalRuleDefaults.writes(forKey: "ping") == writesBefore + 2)
  }

  @Test func byDefaultAnEqualValueIsNeitherAChangeNorWritten() {
    let model = ExternalEqualityRules()
    model.byDefault = 0.25
    let writesBefore = externalRuleDefaults.writes(forKey: "volume")
    #expect(reRuns({ _ = model.byDefault }) { model.byDefault = 0.25 } == 0)
    #expect(externalRuleDefaults.writes(forKey: "volume") == writesBefore)
  }
}

@TrackedState struct EqualityRuleState {
  var byDefault = ContentDocument("a")
  @TrackedEquality(.identity) var byIdentity = ContentDocument("a")
  @TrackedEquality(.always) var always = 0
  @TrackedEquality(by: \RevisedRow.revision) var byRevision = RevisedRow(revision: 1, note: "")
  @TrackedEquality(using: Outline.isSameShape) var byShape = Outline(points: [1, 2])
}

@Suite("@TrackedEquality on @TrackedState fields")
struct StateEqualityRuleTests {
  @Test func eachRuleDecidesForItsField() {
    let box = UncheckedSendable(StateStore(EqualityRuleState()))
    #expect(reRuns({ _ = box.value.byDefault }) { box.value.byDefault = ContentDocument("a") } == 0)
    #expect(reRuns({ _ = box.value.byIdentity }) { box.value.byIdentity = ContentDocument("a") } == 1)
    #expect(reRuns({ _ = box.value.always }) { box.value.always = 0 } == 1)
    #expect(reRuns({ _ = box.value.byRevision }) { box.value.byRevision = RevisedRow(revision: 1, note: "x") } == 0)
    #expect(reRuns({ _ = box.value.byRevision }) { box.value.byRevision = RevisedRow(revision: 2, note: "x") } == 1)
    #expect(reRuns({ _ = box.value.byShape }) { box.value.byShape = Outline(points: [5, 6]) } == 0)
    #expect(reRuns({ _ = box.value.byShape }) { box.value.byShape = Outline(points: [5]) } == 1)
  }
}
