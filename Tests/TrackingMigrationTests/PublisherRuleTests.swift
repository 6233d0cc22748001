import Testing

@testable import TrackingMigration

/// `$property` pipelines: rewritten to the key-path publisher when faithful,
/// reported with what to use otherwise.
@Suite("Combine publishers")
struct PublisherRuleTests {
  private func migrate(_ target: MigrationTarget) throws -> MigrationResult {
    let before = try Fixtures.text("Rules/Publishers/Before.swift")
    return Migrator(target: target).migrate([SourceFile(path: "Publishers.swift", text: before)])
  }

  @Test("Faithful pipelines are rewritten with a note; the others are reported with the reason")
  func tracking() throws {
    let result = try migrate(.tracking)
    // A debounce first; dropFirst() with a closure that makes no calls; onReceive after dropFirst().
    #expect(result.findings(.publisherConverted).map(\.line) == [14, 19, 40])
    #expect(result.findings(.publisherConverted).allSatisfy { $0.severity == .note && $0.message.contains("equal value") })
    let reported = result.findings(.publisherUse)
    #expect(reported.map(\.line) == [24, 29, 43])
    #expect(reported[0].message.contains("makes calls"))
    #expect(reported[1].message.contains("stored or passed on"))
    #expect(reported[2].message.contains(".onChange(of: model.scope, initial: true)"))
    #expect(result.summary.total.unhandled == 0)
  }

  @Test("Under --target apple every publisher is reported with the Observation way")
  func apple() throws {
    let result = try migrate(.apple)
    #expect(result.findings(.publisherConverted).isEmpty)
    #expect(result.findings(.publisherUse).map(\.line) == [14, 19, 24, 29, 40, 43])
    #expect(result.findings(.publisherUse).allSatisfy { $0.message.contains("Observations") })
    #expect(!result.files[0].migrated.contains("TrackingCombine"))
  }

  @Test("Published<T>.Publisher types and assign(to: &$x) are reported")
  func publisherTypes() {
    let source = """
      import Combine
      final class Feed: ObservableObject {
          @Published var items: [Int] = []
          @Published var count = 0
          lazy var itemsPublisher: Published<[Int]>.Publisher = $items
          init(source: Published<Int>.Publisher) {
              source.assign(to: &$count)
          }
      }
      """
    let result = Migrator().migrate([SourceFile(path: "Feed.swift", text: source)])
    let reported = result.findings(.publisherUse)
    #expect(reported.map(\.line) == [5, 5, 6, 7])
    #expect(reported.last?.message.contains("assign(to: &$count)") == true)
    #expect(result.summary.total.unhandled == 0)
  }
}
