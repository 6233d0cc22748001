import Testing

@testable import TrackingMigration

@Suite("Multi-file projects and unparseable input")
struct MultiFileTests {
  @Test("Models and views in different folders migrate together")
  func multiFile() throws {
    let result = Migrator().migrate(try Fixtures.sources(in: "MultiFile/Before"))
    let expected = try Fixtures.files(in: "MultiFile/After")
    #expect(result.migratedByPath.keys.sorted() == expected.keys.sorted())
    #expect(result.changedFiles.map(\.path) == ["Models/Session.swift", "Views/SessionView.swift"])
    for (path, text) in expected {
      #expect(result.migratedByPath[path] == text, "\(path)")
    }
    // The subclass is migrated too, with a note.
    #expect(result.findings(.migratedSubclass).map(\.file) == ["Models/Session.swift"])
    // The type from another module is left alone and reported.
    let unknown = result.findings(.unknownType)
    #expect(unknown.count == 1)
    #expect(unknown.first?.file == "Views/SessionView.swift")
    #expect(unknown.first?.line == 8)
    #expect(unknown.first?.message.contains("'AnalyticsTracker'") == true)
  }

  @Test("Second run over the migrated project changes nothing")
  func idempotent() throws {
    let once = Migrator().migrate(try Fixtures.sources(in: "MultiFile/Before"))
    let twice = Migrator().migrate(once.files.map { SourceFile(path: $0.path, text: $0.migrated) })
    #expect(twice.changedFiles.isEmpty)
  }

  @Test("An unparseable file is reported and left byte-for-byte untouched")
  func unparseable() throws {
    let sources = try Fixtures.sources(in: "Unparseable")
    let result = Migrator().migrate(sources)
    let broken = try #require(result.files.first { $0.path == "Broken.swift" })
    #expect(!broken.isParsed)
    #expect(!broken.hasChanges)
    #expect(result.unparsedFiles.map(\.path) == ["Broken.swift"])
    let errors = result.findings(.parseError)
    #expect(errors.count == 1)
    #expect(errors.first?.severity == .error)
    #expect(errors.first?.line == 4)
    #expect(errors.first?.compilerStyle.hasPrefix("Broken.swift:4:") == true)
    // Its class is unknown to the other files, so the view is not migrated either.
    let view = try #require(result.files.first { $0.path == "BrokenView.swift" })
    #expect(!view.hasChanges)
    #expect(result.findings(.unknownType).map(\.file) == ["BrokenView.swift"])
  }

  @Test("Unparseable input does not prevent other files from migrating")
  func mixed() throws {
    var sources = try Fixtures.sources(in: "Unparseable")
    sources.append(SourceFile(path: "Ok.swift", text: "class Ok: ObservableObject {\n    @Published var x = 1\n}\n"))
    let result = Migrator().migrate(sources)
    #expect(result.changedFiles.map(\.path) == ["Ok.swift"])
  }
}
