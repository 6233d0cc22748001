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

  @Test("Plain left side with a member read on the right is reported", arguments: [
    "if flag && model.value { }",
    "guard isOn || model.isEnabled else { return }",
    "while !done && queue.items.isEmpty { }",
    "let x = ready && store.count > 0 ? 1 : 2",
    "if (a && b) && self.model.value { }",
    "repeat { } while running && worker.busy",
  ])
  func shortCircuitReported(statement: String) {
    let result = findings(inViewBody(statement), rule: .shortCircuit)
    #expect(result.count == 1)
    #expect(result.first?.line == 4)
    #expect(result.first?.severity == .warning)
    #expect(result.first?.message.contains("read it into a local") == true)
  }

  @Test("No false positives", arguments: [
    "if flag && other { }",  // only locals
    "if true || done { }",  // literals and locals
    "if model.value && flag { }",  // the read is always evaluated
    "if flag && mode == Mode.edit { }",  // type member, not an object read
    "if flag && isValid(input) { }",  // a free function call, no member read
    "let y = flag ? model.value : 0",  // not a short-circuit
    "if let v = model.value, flag { }",
  ])
  func shortCircuitNotReported(statement: String) {
    #expect(findings(inViewBody(statement), rule: .shortCircuit).isEmpty)
  }

  /// Wraps a statement in a SwiftUI view body; the statement is on line 4.
  private func inViewBody(_ statement: String) -> String {
    "import SwiftUI\nstruct V: View {\n    var body: some View {\n        \(statement)\n        return Text(\"\")\n    }\n}\n"
  }

  @Test("The reported column points at the skipped read")
  func shortCircuitColumn() {
    let result = findings(inViewBody("if flag && model.value { }"), rule: .shortCircuit)
    #expect(result.first?.column == 20)
    #expect(result.first?.message.contains("'model.value'") == true)
  }

  @Test("Only code under observation tracking is checked")
  func shortCircuitScope() {
    let source = """
      import SwiftUI
      func plain() { if flag && model.value { } }
      func tracked() {
          withTracking { if flag && model.value { } } onChange: { if flag && model.value { } }
      }
      struct V: View { var body: some View { Text("") } }
      extension V { var extra: Bool { flag && model.value } }
      extension V { func helper() -> Bool { flag && model.value ? true : false } }
      """
    let result = findings(source, rule: .shortCircuit)
    #expect(result.map { "\($0.line):\($0.column)" } == ["4:31", "8:47"])
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
              model.observe { }
          }
          func start() { withObservationTracking { } onChange: { } }
      }
      """
    let result = findings(source, rule: .observationInInit)
    #expect(result.map(\.line) == [3, 4])
    #expect(result.allSatisfy { $0.severity == .note })
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
