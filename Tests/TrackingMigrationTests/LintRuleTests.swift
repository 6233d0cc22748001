import Testing

@testable import TrackingMigration

@Suite("Lint rules")
struct LintRuleTests {
  private func findings(_ source: String, rule: Rule) -> [Finding] {
    let result = Migrator().migrate([SourceFile(path: "L.swift", text: source)])
    #expect(!result.files[0].hasChanges, "lint rules never rewrite")
    return result.findings(rule)
  }

  // MARK: Short-circuit reads

  @Test("A flag that is not tracked hides a read inside a tracked closure", arguments: [
    // A UIKit controller (not observable) gating an update on its own flag.
    """
    final class BadgeController: UIViewController {
        var isVisible = false
        let inbox = Inbox()
        var token: ObservationToken?
        override func viewDidLoad() {
            token = observe { if isVisible && inbox.unread > 0 { showBadge() } }
        }
    }
    """,
    // A `var` captured by one-shot tracking.
    """
    func watch(_ store: Store) {
        var enabled = false
        withTracking { if enabled && store.items.isEmpty { print("empty") } } onChange: { enabled = true }
    }
    """,
    // An ignored property of an observable model, in a derived value.
    """
    @Trackable final class Cart {
        var items: [Item] = []
        @TrackingIgnored var isEditing = false
        lazy var total = Derived { self.isEditing || self.items.isEmpty ? 0 : 1 }
    }
    """,
  ])
  func shortCircuitReported(source: String) {
    let result = findings(source, rule: .shortCircuit)
    #expect(result.count == 1)
    #expect(result.first?.severity == .warning)
    #expect(result.first?.message.contains("read it into a local") == true)
  }

  @Test("No report where a change of the left side re-runs the code", arguments: [
    // A SwiftUI body (IceCubes' notification tab does this): state and inputs re-run it.
    """
    struct NotificationsTab: View {
        let isSecondaryColumn: Bool
        @Environment(Preferences.self) private var preferences
        var body: some View {
            if !isSecondaryColumn && preferences.showSecondaryColumn { Text("Side") }
        }
    }
    """,
    // A constant captured by the closure cannot change.
    """
    func watch(_ store: Store, enabled: Bool) {
        let verbose = true
        observe { if verbose && enabled && store.items.isEmpty { print("empty") } }
    }
    """,
    // A tracked property of an observable model.
    """
    @Trackable final class Cart {
        var items: [Item] = []
        var isEditing = false
        lazy var total = Derived { self.isEditing || self.items.isEmpty ? 0 : 1 }
    }
    """,
    // onChange does not run under tracking.
    """
    func watch(_ store: Store) {
        var enabled = false
        withTracking { _ = store.items } onChange: { if enabled && store.items.isEmpty { print("x") } }
    }
    """,
    // KVO's observe is not tracking.
    """
    final class Player: NSObject {
        var isReady = false
        func start(_ item: AVPlayerItem) {
            token = item.observe(\\.status) { item, _ in if self.isReady && item.isPlaybackLikelyToKeepUp { } }
        }
    }
    """,
  ])
  func shortCircuitNotReported(source: String) {
    #expect(findings(source, rule: .shortCircuit).isEmpty)
  }

  @Test("The reported column points at the skipped read")
  func shortCircuitColumn() {
    let source = "func f(_ m: Model) {\n    var flag = false\n    observe { if flag && m.value { } }\n}\n"
    let result = findings(source, rule: .shortCircuit)
    #expect(result.map { "\($0.line):\($0.column)" } == ["3:26"])
    #expect(result.first?.message.contains("'m.value'") == true)
    #expect(result.first?.message.contains("a 'var' captured") == true)
  }

  // MARK: Observation in initializers

  @Test("Observation in the init of a @State-held type is a warning")
  func observationInStateInit() {
    let source = """
      import SwiftUI
      @Trackable final class Feed {
          var items: [String] = []
          init() {
              withTracking { _ = items } onChange: { print("changed") }
          }
      }
      struct FeedView: View {
          @State private var feed = Feed()
          var body: some View { Text("") }
      }
      """
    let result = findings(source, rule: .observationInInit)
    #expect(result.map(\.line) == [5])
    #expect(result.first?.severity == .warning)
    #expect(result.first?.message.contains("@State") == true)
    #expect(result.first?.message.contains(".task") == true)
  }

  @Test("Observation in other initializers is a note; Observations and observe count too")
  func observationInOtherInit() {
    let source = """
      final class Logger {
          init(model: Model) {
              Task { for await v in Observations({ model.value }) { print(v) } }
              token = observe { _ = model.value }
          }
          func start() { withObservationTracking { } onChange: { } }
      }
      """
    let result = findings(source, rule: .observationInInit)
    #expect(result.map(\.line) == [3, 4])
    #expect(result.allSatisfy { $0.severity == .note })
  }

  @Test("A @State that starts as nil does not create the model on every view init")
  func observationWithNilState() {
    // As in IceCubes' sign-in view, the object is made later (in .task), once.
    let source = """
      import SwiftUI
      @Trackable final class SignIn {
          var step = 0
          init() { observe { print(self.step) } }
      }
      struct SignInView: View {
          @State private var signIn: SignIn? = nil
          var body: some View { Text("").task { signIn = SignIn() } }
      }
      """
    let result = findings(source, rule: .observationInInit)
    #expect(result.map(\.severity) == [.note])
  }

  @Test("KVO's observe(_:options:changeHandler:) is not observation tracking")
  func keyValueObservationInInit() {
    // As in XcodesApp's updater and Kiwix's browser model.
    let source = """
      final class Updater: NSObject {
          var checks = false
          var token: NSKeyValueObservation?
          override init() {
              super.init()
              token = updater.observe(\\.automaticallyChecksForUpdates, options: [.initial]) { _, _ in }
          }
      }
      struct V: View { @State var updater = Updater(); var body: some View { Text("") } }
      """
    #expect(findings(source, rule: .observationInInit).isEmpty)
  }

  @Test("Init without observation is not reported")
  func plainInit() {
    let source = "struct S { var x: Int\n init() { x = 1 } }\nstruct V { @State var s = S() }\n"
    #expect(findings(source, rule: .observationInInit).isEmpty)
  }

  // MARK: onChange reading old values

  @Test("onChange reading a tracked property is reported", arguments: [
    "withObservationTracking { print(model.value) } onChange: { print(model.value) }",
    "withTracking({ _ = self.model.value }, onChange: { log(model.value) })",
    "withTracking { _ = count } onChange: { send(count) }",
    "let token = withCancellableTracking { model.items.count } onChange: { reload(model.items) }",
    // A settings binding that re-registers and applies the value it was told changed.
    "withObservationTracking { _ = settings.isEnabled } onChange: { apply(settings.isEnabled); bindSettings() }",
  ])
  func onChangeReported(call: String) {
    let result = findings("func f() {\n    \(call)\n}\n", rule: .onChangeReadsOldValue)
    #expect(result.count == 1)
    #expect(result.first?.line == 2)
    #expect(result.first?.message.contains("old value") == true)
  }

  @Test("onChange not reading tracked values is fine", arguments: [
    "withObservationTracking { print(model.value) } onChange: { reload() }",
    "withTracking { _ = model.value } onChange: { print(model.other) }",
    "someOther { print(model.value) } onChange: { print(model.value) }",
    // The usual re-registration: onChange only schedules work and observes again.
    "withObservationTracking { _ = settings.isEnabled } onChange: { scheduleReload(); bindSettings() }",
  ])
  func onChangeNotReported(call: String) {
    #expect(findings("func f() {\n    \(call)\n}\n", rule: .onChangeReadsOldValue).isEmpty)
  }

  @Test("Lints can be turned off")
  func disabled() {
    let result = Migrator(lints: false).migrate([SourceFile(path: "L.swift", text: "func f() { if a && b.c {} }\n")])
    #expect(result.findings.isEmpty)
  }
}
