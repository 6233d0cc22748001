import PropertyBased
import Testing

/// Random scripts split across 2…4 threads, run in a fixed interleaving (handshakes, no
/// sleeps) against the runtime and against the reference model run in the same
/// interleaving. Compared: what does not depend on which thread delivered what —
/// for each tracking and observation, the sequence of its callbacks (kinds, and the
/// values each observation run read) and where its cancel fell; and the final values.
///
/// A tracking that a change racing with its install may have fired although it did
/// not depend on the change (the runtime checks per object, not per property) is held
/// to less: at most one ending callback, every change callback the model has, no more
/// deinit callbacks than the model has (firing early ends it), nothing after its cancel.
@Suite("Properties: scripts on several threads")
struct ThreadedScriptPropertyTests {
  /// The events of one tracking or observation, as they can be compared across
  /// threads: for trackings, the kinds (a change detected at install does not say
  /// which property it was); for observations, the whole line.
  static func events(of label: String, in log: [String]) -> [String] {
    log.compactMap { line in
      let words = line.split(separator: " ", maxSplits: 2).map(String.init)
      guard words.first == label else { return nil }
      return label.hasPrefix("T") ? words[1] : words.dropFirst().joined(separator: " ")
    }
  }

  static func labels(in log: [String]) -> Set<String> {
    Set(log.compactMap { $0.split(separator: " ").first.map(String.init) })
  }

  static func check(_ script: ThreadedScript, sourceLocation: SourceLocation = #_sourceLocation) {
    let model = ReferenceModel()
    let modelRan = script.run(on: model)
    let modelValues = model.finalValues
    model.finish()
    let world = RuntimeWorld()
    let worldRan = script.run(on: world)
    let worldValues = world.finalValues
    world.finish()
    #expect(modelRan && worldRan, "a turn never came", sourceLocation: sourceLocation)
    #expect(worldValues == modelValues, sourceLocation: sourceLocation)
    let real = world.log.events
    for label in labels(in: model.log).union(labels(in: real)).sorted() {
      let expected = events(of: label, in: model.log)
      let actual = events(of: label, in: real)
      guard model.mayFireSpuriously.contains(label) else {
        #expect(actual == expected, "\(label) in\n\(script)\nlog: \(real)", sourceLocation: sourceLocation)
        continue
      }
      // A tracking fired by such a change ends there: it may then miss a deinit the
      // model has, but never an event that ends it in the model.
      for ending in ["onChange", "didSet"] {
        #expect(actual.filter { $0 == ending }.count <= 1, "\(label): \(actual)", sourceLocation: sourceLocation)
      }
      for event in Set(expected) where event != "cancel" && event != "deinit" {
        #expect(actual.contains(event), "\(label) lacks \(event): \(actual)", sourceLocation: sourceLocation)
      }
      #expect(
        actual.filter { $0 == "deinit" }.count <= expected.filter { $0 == "deinit" }.count,
        "\(label): \(actual)", sourceLocation: sourceLocation)
      if let cancel = actual.firstIndex(of: "cancel") {
        #expect(cancel == actual.count - 1 || actual[(cancel + 1)...].allSatisfy { $0 == "cancel" },
          "\(label) ran after its cancel returned: \(actual)", sourceLocation: sourceLocation)
      }
    }
  }

  @Test func eachTrackingAndObservationHearsWhatTheModelSays() async {
    let count = ScriptPropertyTests.count * 3 / 10
    await propertyCheck(count: count, input: ScriptGenerator.threadedScripts()) { script in
      Self.check(script)
    }
  }

  // MARK: Interleavings worth keeping as examples

  static let ax = PropertyRef(slot: .a, property: 0)
  static let ay = PropertyRef(slot: .a, property: 1)
  static let onChange = TrackMode(events: .onChange, deinitToo: false, cancellable: true)

  /// Another thread writes a property between the scope's read of it and the install:
  /// the tracking fires at install.
  @Test func aWriteBetweenReadAndInstallFires() {
    let script = ThreadedScript(
      threads: [[.track(Self.onChange, [.read(Self.ax), .pause])], [.write(Self.ax)]], schedule: [0, 1, 0])
    let world = RuntimeWorld()
    #expect(script.run(on: world))
    #expect(world.log.events == ["T1 onChange"])
    Self.check(script)
  }

  /// The same for every kind of one-shot tracking, and for the tracking around it.
  @Test func aWriteBetweenReadAndInstallFiresNestedTrackingsOfEveryKind() {
    let kinds: [(TrackMode.Events, [String])] = [
      (.willSet, ["T2 willSet ?"]), (.didSet, ["T2 didSet ?"]), (.willSetDidSet, ["T2 willSet ?", "T2 didSet ?"]),
    ]
    for (events, heard) in kinds {
      let mode = TrackMode(events: events, deinitToo: false, cancellable: true)
      let script = ThreadedScript(
        threads: [[.track(Self.onChange, [.track(mode, [.read(Self.ax), .pause])])], [.write(Self.ax)]],
        schedule: [0, 1, 0])
      let world = RuntimeWorld()
      #expect(script.run(on: world))
      #expect(world.log.events.filter { $0.hasPrefix("T2") } == heard)
      #expect(world.log.events.filter { $0.hasPrefix("T1") } == ["T1 onChange"])
      Self.check(script)
    }
  }

  /// Another thread's open transaction holds back only its own changes: a write made
  /// outside it runs the observation at once, and the transaction's later write runs it
  /// again when the transaction ends.
  @Test func anOpenTransactionElsewhereDoesNotHoldBackAChange() {
    let script = ThreadedScript(
      threads: [[.observe([.read(Self.ax)])], [.transaction([.write(Self.ax), .pause, .write(Self.ax)])], [.write(Self.ax)]],
      schedule: [0, 1, 2, 1])
    let world = RuntimeWorld()
    #expect(script.run(on: world))
    #expect(world.log.events == ["O1 run A.x=0", "O1 run A.x=2", "O1 run A.x=3"])
    Self.check(script)
  }

  /// And the end of one thread's transaction does not run an observation for a change
  /// that another thread's transaction, still open, made: that one runs it when it ends.
  @Test func aTransactionsEndRunsOnlyForItsOwnChanges() {
    let bx = PropertyRef(slot: .b, property: 0)
    let cy = PropertyRef(slot: .c, property: 1)
    let script = ThreadedScript(
      threads: [
        [.observe([.read(bx), .read(cy)]), .transaction([.write(cy), .pause])],
        [.write(cy), .transaction([.write(bx), .pause, .write(bx)])],
      ],
      schedule: [0, 1])
    let world = RuntimeWorld()
    #expect(script.run(on: world))
    #expect(world.log.events == ["O1 run B.x=0 C.y=0", "O1 run B.x=0 C.y=2", "O1 run B.x=4 C.y=2"])
    Self.check(script)
  }

  /// A write that another thread makes before the scope reads the property is seen by
  /// the read: nothing fires.
  @Test func aWriteBeforeTheReadDoesNotFire() {
    let script = ThreadedScript(
      threads: [[.track(Self.onChange, [.pause, .read(Self.ax)])], [.write(Self.ax)]], schedule: [0, 1, 0])
    let world = RuntimeWorld()
    #expect(script.run(on: world))
    #expect(world.log.events.isEmpty)
    Self.check(script)
  }
}
