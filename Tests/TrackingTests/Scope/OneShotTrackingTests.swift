import Foundation
import Testing
@_spi(Testing) import Tracking

@Suite("One-shot tracking beyond Apple's API")
struct OneShotTrackingTests {
  @Test func didChangeRunsAfterTheChangeWithTheNewValue() {
    let counter = Counter()
    let log = EventLog()
    withTracking { _ = counter.count } didSet: { change in
      log("didChange value=\(change.value(of: \Counter.count).map(String.init) ?? "nil") now=\(counter.count)")
      #expect(change.object == ObjectIdentifier(counter))
      #expect(change.isChange(of: counter, \.count))
    }
    counter.count = 5
    counter.count = 6
    #expect(log.events == ["didChange value=5 now=5"])
  }

  @Test func willChangeSeesTheOldValueAndTheKeyPath() {
    let counter = Counter()
    let log = EventLog()
    withTracking { _ = counter.count; _ = counter.label } willSet: { change in
      log("willChange \(change.keyPath == \Counter.label) old=\(change.value(of: \Counter.label) ?? "?")")
    }
    counter.label = "renamed"
    #expect(log.events == ["willChange true old=counter"])
  }

  @Test func valueOfAnotherKeyPathIsNil() {
    let counter = Counter()
    let seen = EventLog()
    withTracking { _ = counter.count } didSet: { change in
      seen(change.value(of: \Counter.label) == nil ? "nil" : "value")
    }
    counter.count = 1
    #expect(seen.events == ["nil"])
  }

  @Test func inPlaceMutationReportsDidChange() {
    let counter = Counter()
    let log = EventLog()
    withTracking { _ = counter.history } didSet: { change in
      log("history=\(change.value(of: \Counter.history) ?? [])")
    }
    counter.history.append(42)
    #expect(log.events == ["history=[42]"])
  }

  @Test func cancelledTrackingNeverFires() {
    let counter = Counter()
    let log = EventLog()
    let (value, token) = withCancellableTracking { counter.count } onChange: { log("fired") }
    #expect(value == 0)
    #expect(token.isPending)
    token.cancel()
    #expect(!token.isPending)
    counter.count = 1
    token.cancel()  // cancelling twice does nothing
    #expect(log.events.isEmpty)
  }

  @Test func firedTrackingIsNoLongerPending() {
    let counter = Counter()
    let (_, token) = withCancellableTracking(options: .didSet) { counter.count } onChange: { _ in }
    counter.count = 1
    #expect(!token.isPending)
  }

  @Test func scopeWithoutReadsGivesAnInertToken() {
    let (_, token) = withCancellableTracking { 1 } onChange: {}
    #expect(!token.isPending)
    token.cancel()
  }

  @Test func throwingApplyInstallsNothingAndRethrows() {
    struct Failure: Error {}
    let counter = Counter()
    let log = EventLog()
    #expect(throws: Failure.self) {
      try withTracking { () throws(Failure) -> Int in
        _ = counter.count
        throw Failure()
      } onChange: {
        log("fired")
      }
    }
    counter.count = 1
    #expect(log.events.isEmpty)
  }

  @Test func withoutTrackingHidesReadsFromTheScope() {
    let counter = Counter()
    let log = EventLog()
    withTracking {
      _ = counter.label
      withoutTracking { _ = counter.count }
      #expect(isInsideTracking)
    } onChange: {
      log("fired")
    }
    #expect(!isInsideTracking)
    counter.count = 1
    #expect(log.events.isEmpty)
    counter.label = "x"
    #expect(log.events == ["fired"])
  }

  @Test func genericClassIsTracked() {
    let pair = Pair("a", "b")
    let log = EventLog()
    withTracking { _ = pair.second } onChange: { log("second") }
    pair.first = "c"
    pair.second = "d"
    #expect(log.events == ["second"])
  }

  @Test func accessLevelsAreKeptAndTracked() {
    let model = AccessLevels()
    let log = EventLog()
    withTracking { _ = model.readOnlyOutside; _ = model.hiddenValue } onChange: { log("fired") }
    model.setReadOnly(9)
    #expect(log.events == ["fired"])
    withTracking { _ = model.hiddenValue } onChange: { log("hidden") }
    model.bumpHidden()
    #expect(log.events == ["fired", "hidden"])
  }

  @Test func handWrittenPropertyThroughGeneratedMembers() {
    let model = HandWritten()
    let log = EventLog()
    withTracking { _ = model.manual } onChange: { log("manual") }
    model.manual = 3
    #expect(log.events == ["manual"])
    #expect(model.manual == 3)
  }

  @Test func registrarKeyPathEntryPointsNumberKeyPathsOnce() {
    let registrar = TrackingRegistrar()
    let first = registrar.propertyID(for: \Counter.count)
    #expect(registrar.propertyID(for: \Counter.count) == first)
    #expect(registrar.propertyID(for: \Counter.label) != first)
  }

  @Test @MainActor func mainActorClass() {
    let model = MainActorModel()
    let log = EventLog()
    withTracking { _ = model.title } onChange: { log("title") }
    model.title = "changed"
    #expect(log.events == ["title"])
  }
}

@Suite("External storage")
struct ExternalStorageTests {
  @Test func readsAndWritesGoThroughTheStorageAndAreTracked() {
    let prefs = Preferences(defaults: sharedDefaults)
    let log = EventLog()
    withTracking { log("volume=\(prefs.volume)") } onChange: { log("will change from \(prefs.volume)") }
    prefs.volume = 0.8
    #expect(sharedDefaults.object(forKey: "volume") as? Double == 0.8)
    #expect(sharedDefaults.writes(forKey: "volume") == 1)
    #expect(log.events == ["volume=0.5", "will change from 0.5"])
    #expect(Preferences(defaults: sharedDefaults).volume == 0.8)
  }

  @Test func equalValueIsNotWrittenOrNotified() {
    let prefs = Preferences(defaults: sharedDefaults)
    prefs.brightness = 0.3
    let writes = sharedDefaults.writes(forKey: "brightness")
    let log = EventLog()
    withTracking { _ = prefs.brightness } onChange: { log("fired") }
    prefs.brightness = 0.3
    #expect(sharedDefaults.writes(forKey: "brightness") == writes)
    #expect(log.events.isEmpty)
    withTracking { _ = prefs.theme } onChange: { log("theme") }
    prefs.theme = "dark"
    #expect(log.events == ["theme"])
  }
}

@Suite("Codable")
struct CodableTests {
  @Test func encodesUnderThePropertiesOwnNames() throws {
    let settings = Settings()
    settings.query = "swift"
    settings.path = ["a", "b"]
    settings.sessionCount = 2
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let json = String(decoding: try encoder.encode(settings), as: UTF8.self)
    #expect(json == #"{"path":["a","b"],"query":"swift","sessionCount":2}"#)
  }

  @Test func decodesIntoTrackedProperties() throws {
    let json = #"{"query":"q","path":["x"],"sessionCount":1}"#
    let settings = try JSONDecoder().decode(Settings.self, from: Data(json.utf8))
    #expect(settings.query == "q")
    #expect(settings.path == ["x"])
    let log = EventLog()
    withTracking { _ = settings.query } onChange: { log("query") }
    settings.query = "new"
    #expect(log.events == ["query"])
  }
}
