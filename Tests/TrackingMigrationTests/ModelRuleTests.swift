import Testing

@testable import TrackingMigration

/// Model rules that keep every update views used to get: hand-written
/// announcements, `@AppStorage`, declarations of several properties.
@Suite("Model rules")
struct ModelRuleTests {
  private func migrate(_ fixture: String, _ target: MigrationTarget = .tracking) throws -> MigrationResult {
    let before = try Fixtures.text("Rules/\(fixture)/Before.swift")
    return Migrator(target: target).migrate([SourceFile(path: "\(fixture).swift", text: before)])
  }

  @Test("Announced properties stay tracked; redundant sends go; the others are reported")
  func announcedChanges() throws {
    let result = try migrate("AnnouncedChanges")
    // completed/failed (written where sends happen), speed and label (sends in observers).
    #expect(result.findings(.announcedProperty).map(\.line) == [7, 8, 11])
    // Dashboard's `forwarding` held only the forwarding subscription: removed with it.
    #expect(result.findings(.ignoredProperty).map(\.line) == [21, 22])
    // fail() also calls Log.write, which the tool cannot see into: reported, not removed.
    let reported = result.findings(.objectWillChange)
    #expect(reported.map(\.line) == [37])
    #expect(reported.first?.message.contains("'failed' (now tracked)") == true)
    #expect(reported.first?.message.contains("'Log.write'") == true)
    // Nine sites: the conformances, @Published, two @AppStorage, and the sends
    // (observers, finish(), the forwarding pair) are converted; fail()'s is reported.
    #expect(result.summary.total.reported == 1)
    #expect(result.summary.total.unhandled == 0)
    #expect(result.summary.byKind["object-will-change"]?.converted == 6)
    #expect(result.summary.byKind["property-wrapper"]?.converted == 2)
  }

  @Test("A send inside an unrelated closure is reported, and its writes stay tracked")
  func sendInClosure() {
    let source = """
      final class Loader: ObservableObject {
          var image: Data?
          func load(_ url: URL) {
              fetch(url) { data in
                  self.image = data
                  DispatchQueue.main.async { self.objectWillChange.send() }
              }
          }
      }
      """
    let result = Migrator().migrate([SourceFile(path: "L.swift", text: source)])
    #expect(result.findings(.announcedProperty).map(\.line) == [2])
    #expect(result.findings(.objectWillChange).map(\.line) == [6])
    #expect(result.files[0].migrated.contains("    var image: Data?\n"))
  }

  @Test("@AppStorage with a type the tool cannot read is reported, under both targets", arguments: MigrationTarget.allCases)
  func appStorageWithoutType(target: MigrationTarget) {
    let source = "import SwiftUI\nfinal class S: ObservableObject {\n    @AppStorage(\"k\") var mode = Mode.light\n}\n"
    let result = Migrator(target: target).migrate([SourceFile(path: "S.swift", text: source)])
    let reported = result.findings(.modelPropertyWrapper)
    #expect(reported.map(\.severity) == [.warning])
    #expect(reported.first?.message.contains("@\(target.macroName) cannot track 'mode'") == true)
    #expect(reported.first?.message.contains("add a type annotation") == true)
    #expect(result.files[0].migrated.contains("    @AppStorage(\"k\") var mode = Mode.light\n"))
    #expect(result.summary.total.reported == 1)
    #expect(result.summary.total.unhandled == 0)
  }

  @Test("Several properties in one declaration become one declaration each")
  func multipleBindings() {
    let source = """
      final class Grades: Codable, ObservableObject {
          var year, term: String
          @MainActor var average = 0.0, best: Double = 0 /* so far */, count = 0
      }
      """
    let expected = """
      import Tracking

      @Trackable final class Grades: Codable {
          @TrackingIgnored var year: String
          @TrackingIgnored var term: String
          @TrackingIgnored @MainActor var average = 0.0
          @TrackingIgnored @MainActor var best: Double = 0 /* so far */
          @TrackingIgnored @MainActor var count = 0
      }
      """
    let result = Migrator().migrate([SourceFile(path: "G.swift", text: source)])
    #expect(result.files[0].migrated == expected)
  }

  @Test("Synthesized Codable keeps its format under --target apple")
  func codableApple() throws {
    let result = try migrate("CodableApple", .apple)
    let findings = result.findings(.codableModel)
    // Keys added to ReadingProfile, renamed in Shelf; Tag decodes by hand: reported.
    #expect(findings.map { "\($0.line):\($0.severity)" } == ["4:note", "25:note", "36:warning"])
    // --target tracking codes the real names: nothing to do.
    let tracking = try migrate("CodableApple", .tracking)
    #expect(tracking.findings(.codableModel).isEmpty)
    #expect(!tracking.files[0].migrated.contains("case _"))
  }
}
