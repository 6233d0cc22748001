import Testing

@testable import TrackingMigration

/// The BookReader app from Apple's migration guide, written from the guide's
/// steps: models and views live in separate files, so this is also the
/// canonical multi-file test.
@Suite("BookReader migration")
struct BookReaderTests {
  @Test("BEFORE becomes AFTER exactly (@Trackable)")
  func migratesToTrackable() throws {
    let result = Migrator(target: .tracking).migrate(try Fixtures.sources(in: "BookReader/Before"))
    let expected = try Fixtures.files(in: "BookReader/After")
    #expect(result.migratedByPath.keys.sorted() == expected.keys.sorted())
    for (path, text) in expected {
      #expect(result.migratedByPath[path] == text, "\(path)")
    }
    #expect(result.findings.isEmpty)
    #expect(result.changedFiles.count == 6)
  }

  @Test("BEFORE becomes AFTER exactly (@Observable with --target apple)")
  func migratesToObservable() throws {
    let result = Migrator(target: .apple).migrate(try Fixtures.sources(in: "BookReader/Before"))
    let expected = try Fixtures.files(in: "BookReader/AfterApple")
    for (path, text) in expected {
      #expect(result.migratedByPath[path] == text, "\(path)")
    }
    #expect(result.findings.isEmpty)
  }

  @Test("Running on the AFTER code changes nothing", arguments: [
    ("BookReader/After", MigrationTarget.tracking), ("BookReader/AfterApple", .apple),
  ])
  func idempotent(directory: String, target: MigrationTarget) throws {
    let result = Migrator(target: target).migrate(try Fixtures.sources(in: directory))
    #expect(result.changedFiles.isEmpty)
    #expect(result.findings.isEmpty)
  }

  @Test("Views alone: models not among the inputs are left untouched and reported")
  func viewsWithoutModels() throws {
    let views = try Fixtures.sources(in: "BookReader/Before").filter { $0.path.hasSuffix("View.swift") || $0.path.hasSuffix("App.swift") }
    let result = Migrator().migrate(views)
    #expect(result.changedFiles.isEmpty)
    let unknown = result.findings(.unknownType)
    // @StateObject, .environmentObject, @EnvironmentObject and two @ObservedObject:
    // their types come from another module, where they are ObservableObjects.
    #expect(unknown.count == 5)
    #expect(unknown.allSatisfy { $0.severity == .note && $0.message.contains("another module") })
    #expect(result.summary.total.kept == 5)
  }

  @Test("A model already migrated in an earlier run still lets views migrate")
  func modelsAlreadyMigrated() throws {
    var sources = try Fixtures.sources(in: "BookReader/Before")
    let after = try Fixtures.files(in: "BookReader/After")
    for index in sources.indices where ["Book.swift", "Library.swift"].contains(sources[index].path) {
      sources[index].text = after[sources[index].path]!
    }
    let result = Migrator().migrate(sources)
    for (path, text) in after {
      #expect(result.migratedByPath[path] == text, "\(path)")
    }
  }
}
