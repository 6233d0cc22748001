import Testing

@testable import TrackingMigration

/// One fixture per rewrite area: `Fixtures/Rules/<Name>/Before.swift` must
/// migrate to `After.swift` byte for byte, and `After.swift` must be a fixed point.
@Suite("Rule fixtures")
struct RuleFixtureTests {
  static let cases: [(String, MigrationTarget)] = [
    ("Model", .tracking), ("Views", .tracking), ("Trivia", .tracking), ("AppleImports", .apple),
    ("ConditionalMembers", .tracking), ("AnnouncedChanges", .tracking), ("AppStorageApple", .apple),
    ("ProtocolsAndInits", .tracking), ("ViewsResolved", .tracking), ("Publishers", .tracking), ("CodableApple", .apple), ("InheritanceComments", .tracking),
  ]

  @Test("Before migrates to After", arguments: cases)
  func beforeBecomesAfter(name: String, target: MigrationTarget) throws {
    let before = try Fixtures.text("Rules/\(name)/Before.swift")
    let after = try Fixtures.text("Rules/\(name)/After.swift")
    let result = Migrator(target: target).migrate([SourceFile(path: "\(name).swift", text: before)])
    #expect(result.files[0].migrated == after)
  }

  @Test("After is a fixed point", arguments: cases)
  func idempotent(name: String, target: MigrationTarget) throws {
    let after = try Fixtures.text("Rules/\(name)/After.swift")
    let result = Migrator(target: target).migrate([SourceFile(path: "\(name).swift", text: after)])
    #expect(!result.files[0].hasChanges)
  }

  @Test("Model rules report manual work and ignored properties")
  func modelFindings() throws {
    let before = try Fixtures.text("Rules/Model/Before.swift")
    let result = Migrator().migrate([SourceFile(path: "Model.swift", text: before)])
    let ignored = result.findings(.ignoredProperty)
    #expect(ignored.map(\.line) == [13, 14, 15, 46])
    #expect(ignored.allSatisfy { $0.severity == .note && $0.message.contains("@TrackingIgnored") })
    let publishers = result.findings(.publisherUse)
    #expect(publishers.map { "\($0.line):\($0.column)" } == ["50:18"])
    #expect(result.findings(.publisherConverted).map { "\($0.line):\($0.column)" } == ["24:23"])
    let willChange = result.findings(.objectWillChange)
    #expect(willChange.map(\.line) == [25])
    #expect(willChange.first?.severity == .warning)
    #expect(result.findings(.migratedSubclass).map(\.line) == [44])
    // bind() writes 'cancellable' and announces it with objectWillChange.send().
    #expect(result.findings(.announcedProperty).map(\.line) == [21])
  }

  @Test("View rules leave types from other modules alone and say so")
  func viewFindings() throws {
    let before = try Fixtures.text("Rules/Views/Before.swift")
    let result = Migrator().migrate([SourceFile(path: "Views.swift", text: before)])
    let unknown = result.findings(.unknownType)
    #expect(unknown.map(\.line) == [14, 15, 24])
    #expect(unknown.allSatisfy { $0.message.contains("'ExternalModel'") })
  }

  @Test("CRLF line endings are preserved")
  func crlf() {
    let before = "import SwiftUI\r\n\r\nclass M: ObservableObject {\r\n    @Published\r\n    var a = 1\r\n    @Published var b = 2\r\n}\r\n"
    let expected = "import SwiftUI\r\nimport Tracking\r\n\r\n@Trackable class M {\r\n    var a = 1\r\n    var b = 2\r\n}\r\n"
    let result = Migrator().migrate([SourceFile(path: "M.swift", text: before)])
    #expect(result.files[0].migrated == expected)
  }

  @Test("Import goes before a doc comment when the file has no header")
  func importWithoutHeader() {
    let before = "/// Doc.\nclass M: ObservableObject {}\n"
    let result = Migrator().migrate([SourceFile(path: "M.swift", text: before)])
    #expect(result.files[0].migrated == "import Tracking\n\n/// Doc.\n@Trackable class M {}\n")
  }

  @Test("environmentObject arguments are resolved from properties, locals, parameters and initializers")
  func environmentObjectResolution() {
    let source = """
      import SwiftUI
      class M: ObservableObject {}
      struct V: View {
          @StateObject private var model = M()
          var body: some View {
              let local = M()
              return Text("")
                  .environmentObject(self.model)
                  .environmentObject(model)
                  .environmentObject(local)
                  .environmentObject(M.init())
          }
          func wrap(_ given: M) -> some View { Text("").environmentObject(given) }
      }
      """
    let result = Migrator().migrate([SourceFile(path: "V.swift", text: source)])
    let migrated = result.files[0].migrated
    #expect(!migrated.contains("environmentObject"))
    #expect(migrated.components(separatedBy: ".environment(").count == 6)
    #expect(result.findings.isEmpty)
  }

  @Test("Unresolvable wrapper types are reported, not guessed")
  func unresolvableType() {
    let source = """
      import SwiftUI
      class M: ObservableObject {}
      struct V: View {
          @StateObject var m = makeModel()
          var body: some View { Text("").environmentObject(factory.model) }
      }
      """
    let result = Migrator().migrate([SourceFile(path: "V.swift", text: source)])
    #expect(result.files[0].migrated.contains("@StateObject var m = makeModel()"))
    #expect(result.files[0].migrated.contains(".environmentObject(factory.model)"))
    #expect(result.findings(.unknownType).count == 2)
    #expect(result.findings(.unknownType).allSatisfy { $0.message.contains("cannot determine the type") })
  }

  @Test("A class whose ObservableObject conformance is invisible is left alone and reported")
  func invisibleConformance() {
    let source = "import KitUI\n\nfinal class Screen: KitViewModel {\n    @Published var title = \"\"\n}\n"
    let result = Migrator().migrate([SourceFile(path: "S.swift", text: source)])
    #expect(!result.files[0].hasChanges)
    #expect(result.findings(.unknownType).map { "\($0.line):\($0.column)" } == ["3:13"])
  }

  @Test("Manual-work constructs are reported; StateObject(wrappedValue:) is rewritten")
  func manualWork() {
    let source = """
      import SwiftUI
      class M: ObservableObject { @Published var x = 0 }
      extension Other: ObservableObject {}
      struct V: View {
          @StateObject var m: M
          init() { _m = StateObject(wrappedValue: M()) }
          var body: some View { Text("") }
      }
      """
    let result = Migrator().migrate([SourceFile(path: "V.swift", text: source)])
    #expect(result.findings(.stateObjectInit).isEmpty)
    #expect(result.files[0].migrated.contains("init() { _m = State(wrappedValue: M()) }"))
    #expect(result.findings(.unsupportedConformance).map(\.line) == [3])
    // `.objectWillChange` as an implicit member (say, an enum case) is not a publisher.
    let implicit = Migrator().migrate([SourceFile(path: "E.swift", text: "let r: Rule = .objectWillChange\n")])
    #expect(implicit.findings.isEmpty)
    #expect(result.files[0].migrated.contains("@State var m: M"))
  }
}
