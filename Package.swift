// swift-tools-version: 6.1
import CompilerPluginSupport
import PackageDescription

// What an app that depends only on `Tracking` fetches: this package and swift-syntax
// (for the macros). Every other dependency is either used only by this package's own
// tests and tools (SwiftPM does not fetch those for a dependent) or behind a trait that
// is off by default (SwiftPM does not fetch a dependency whose every use is behind a
// disabled trait). `Scripts/measure-adoption.sh` checks this with a throwaway app.
let package = Package(
  name: "swift-tracking",
  platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6), .macCatalyst(.v13)],
  products: [
    // The one import: runtime, continuous observation, derived values, struct state,
    // bindings, the render loop and untracked-read diagnostics.
    .library(name: "Tracking", targets: ["Tracking"]),
    // Helpers for tests of code that observes; re-exports Tracking.
    .library(name: "TrackingTesting", targets: ["TrackingTesting"]),
    // Combine (Apple systems) or OpenCombine (elsewhere, trait `OpenCombine`); re-exports Tracking.
    .library(name: "TrackingCombine", targets: ["TrackingCombine"]),
    // Saving models to a file (always), SQLite (trait `SQLite`) or PostgreSQL (trait
    // `PostgreSQL`); re-exports Tracking.
    .library(name: "TrackingPersistence", targets: ["TrackingPersistence"]),
    .executable(name: "tracking-tour", targets: ["TrackingTour"]),
    .executable(name: "tracking-migrate", targets: ["TrackingMigrate"]),
  ],
  traits: [
    .trait(
      name: "OpenCombine",
      description: "TrackingCombine over OpenCombine where Apple's Combine does not exist (Linux, Windows)."),
    .trait(name: "SQLite", description: "SQLiteStorage for TrackingPersistence, through GRDB."),
    .trait(name: "PostgreSQL", description: "PostgreSQL storage for TrackingPersistence, through postgres-nio."),
    .default(enabledTraits: []),
  ],
  dependencies: [
    // A range, so that the package resolves next to others that use swift-syntax
    // (swift-perception, TCA). `Scripts/check-swift-syntax-range.sh` tests both ends.
    .package(url: "https://github.com/swiftlang/swift-syntax", "600.0.0"..<"604.0.0"),
    // Behind traits.
    .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    // Tests only.
    .package(url: "https://github.com/pointfreeco/swift-macro-testing", from: "0.7.0"),
    .package(url: "https://github.com/apple/swift-async-algorithms", from: "1.1.4"),
    .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
    .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
  ],
  targets: [
    // Tiny C layer: the thread-local scope slot, a portable lock, atomics. Kept in C so
    // the hot path inlines to a few instructions on every platform without the OS
    // version gates of the Synchronization module.
    .target(name: "CTrackingSupport"),
    .target(name: "Tracking", dependencies: ["CTrackingSupport", "TrackingMacros"]),
    // The compiler plugin: its entry point and the names `#externalMacro` gives.
    .macro(
      name: "TrackingMacros",
      dependencies: [
        "TrackingMacroExpansions",
        .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
      ]
    ),
    // What each macro expands to. A plain library, which the expansion tests link: a
    // test target that depends on a macro target makes SwiftPM build the whole test
    // product, and everything it depends on, a second time for the host.
    .target(
      name: "TrackingMacroExpansions",
      dependencies: [
        .product(name: "SwiftSyntax", package: "swift-syntax"),
        .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
        .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
        .product(name: "SwiftDiagnostics", package: "swift-syntax"),
      ]
    ),
    .target(name: "TrackingTesting", dependencies: ["Tracking"]),
    .target(
      name: "TrackingCombine",
      dependencies: [
        "Tracking",
        .product(
          name: "OpenCombine", package: "OpenCombine",
          condition: .when(platforms: [.linux, .windows, .android, .wasi, .openbsd], traits: ["OpenCombine"])),
      ]
    ),
    .target(
      name: "TrackingPersistence",
      dependencies: [
        "Tracking",
        .product(name: "GRDB", package: "GRDB.swift", condition: .when(traits: ["SQLite"])),
        .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"])),
      ]
    ),
    .executableTarget(name: "TrackingTour", dependencies: ["Tracking", "TrackingCombine", "TrackingPersistence"]),
    // The migration engine reads and rewrites Swift with swift-syntax (already needed by
    // the macros); the command line needs nothing else.
    .target(
      name: "TrackingMigration",
      dependencies: [
        .product(name: "SwiftSyntax", package: "swift-syntax"),
        .product(name: "SwiftParser", package: "swift-syntax"),
        .product(name: "SwiftParserDiagnostics", package: "swift-syntax"),
        .product(name: "SwiftDiagnostics", package: "swift-syntax"),
        .product(name: "SwiftOperators", package: "swift-syntax"),
      ]
    ),
    .executableTarget(name: "TrackingMigrate", dependencies: ["TrackingMigration"]),

    // The process heap in use, for the soak tests; used by tests only.
    .target(name: "CTestHeapStats", path: "Tests/CTestHeapStats"),
    // The field's reactive-graph benchmark suite, ported: its cases and their expected
    // figures, checked by the tests and timed by Benchmarks (which links this folder).
    .target(name: "ReactivitySuite", dependencies: ["Tracking"], path: "Tests/ReactivitySuite"),
    // Random graphs of derived values and effects, their generator, and the same graph
    // made live with the runtime: the random cross-thread tests of each delivery (the
    // runtime's own, and the Combine bridge's) share them.
    .target(
      name: "DerivedGraphScripts",
      dependencies: ["Tracking", .product(name: "PropertyBased", package: "swift-property-based")],
      path: "Tests/DerivedGraphScripts"),
    .testTarget(
      name: "TrackingTests",
      dependencies: [
        "Tracking",
        "CTestHeapStats",
        "ReactivitySuite",
        "DerivedGraphScripts",
        .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
        .product(name: "Clocks", package: "swift-clocks"),
        .product(name: "PropertyBased", package: "swift-property-based"),
      ]
    ),
    // Built as new app targets are, with main-actor default isolation (SE-0466): checks
    // that the callback APIs take closures that touch main-actor state.
    .testTarget(
      name: "MainActorDefaultTests",
      dependencies: ["Tracking", "TrackingTesting"],
      swiftSettings: [.unsafeFlags(["-default-isolation", "MainActor"])]
    ),
    // Compile-only: SE-0506's code examples and the usage in the documentation comments
    // of Apple's shipped ObservationTracking.swift / ContinuousObservation.swift, with the
    // names changed. Nothing in it runs; it must build, warnings being errors.
    .testTarget(
      name: "SE0506SourceTests",
      dependencies: ["Tracking"],
      swiftSettings: [.unsafeFlags(["-warnings-as-errors"])]
    ),
    .testTarget(
      name: "TrackingMacroExpansionsTests",
      dependencies: [
        "TrackingMacroExpansions",
        .product(name: "MacroTesting", package: "swift-macro-testing"),
        .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
      ]
    ),
    .testTarget(
      name: "TrackingTestingTests",
      dependencies: ["TrackingTesting", .product(name: "Clocks", package: "swift-clocks")]
    ),
    .testTarget(
      name: "TrackingCombineTests",
      dependencies: [
        "TrackingCombine",
        "DerivedGraphScripts",
        .product(name: "PropertyBased", package: "swift-property-based"),
        .product(
          name: "OpenCombine", package: "OpenCombine",
          condition: .when(platforms: [.linux, .windows, .android, .wasi, .openbsd], traits: ["OpenCombine"])),
      ]
    ),
    .testTarget(
      name: "TrackingPersistenceTests",
      dependencies: [
        "TrackingPersistence",
        // The PostgreSQL tests drop connections from the server's side.
        .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"])),
        // The SQLite tests hold the database's lock and shape tables from a second connection.
        .product(name: "GRDB", package: "GRDB.swift", condition: .when(traits: ["SQLite"])),
      ]
    ),
    // The Apple-framework examples of README and the DocC articles (SwiftUI views over
    // tracked models: TrackedView, @BindableModel, @Bindable, @Environment(Model.self),
    // .environment(model); the Combine publisher in a sink), compiled and never run. On
    // Apple systems every build with tests compiles them (the macOS and iOS jobs of
    // .github/workflows/apple-platforms.yml); on Linux only the Combine file compiles
    // here (over OpenCombine), and Scripts/check-apple-platforms.sh compiles them all
    // against stub SwiftUI and Combine modules. A test target, not a plain one, because
    // Xcode makes a scheme for each test target, which the iOS job builds.
    .testTarget(
      name: "DocumentationExamples",
      dependencies: [
        "Tracking",
        "TrackingCombine",
        .product(
          name: "OpenCombine", package: "OpenCombine",
          condition: .when(platforms: [.linux, .windows, .android, .wasi, .openbsd], traits: ["OpenCombine"])),
      ],
      path: "Examples/DocumentationExamples"
    ),
    .testTarget(
      name: "TrackingMigrationTests",
      dependencies: ["TrackingMigration"],
      // Fixtures are Swift sources read as text (located via #filePath), not compiled.
      exclude: ["Fixtures"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
