// swift-tools-version: 6.1
import CompilerPluginSupport
import PackageDescription

let package = Package(
  name: "swift-tracking",
  platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6), .macCatalyst(.v13)],
  products: [
    .library(name: "Tracking", targets: ["Tracking"]),
    .library(name: "ContinuousTracking", targets: ["ContinuousTracking"]),
    .library(name: "TrackingTesting", targets: ["TrackingTesting"]),
    .executable(name: "tracking-tour", targets: ["TrackingTour"]),
    .library(name: "TrackingCombine", targets: ["TrackingCombine"]),
    .library(name: "TrackingRenderLoop", targets: ["TrackingRenderLoop"]),
    .library(name: "TrackingPersistence", targets: ["TrackingPersistence"]),
    .library(name: "TrackingState", targets: ["TrackingState"]),
    .library(name: "TrackingDiagnostics", targets: ["TrackingDiagnostics"]),
    .library(name: "TrackingBindings", targets: ["TrackingBindings"]),
    // BEGIN migration products
    .executable(name: "tracking-migrate", targets: ["TrackingMigrate"]),
    // END migration products
  ],
  dependencies: [
    .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.0"),
    .package(url: "https://github.com/pointfreeco/swift-macro-testing", from: "0.7.0"),
    .package(url: "https://github.com/apple/swift-async-algorithms", from: "1.1.4"),
    .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
    .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", from: "1.13.1"),
    // BEGIN migration dependencies
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    // END migration dependencies
  ],
  targets: [
    // Tiny C layer: thread-local scope pointer, a portable lock, relaxed atomics.
    // Kept in C so the hot path inlines to a few instructions on every platform
    // without the OS-version gates of the Synchronization module.
    .target(name: "CTrackingSupport"),
    .target(
      name: "Tracking",
      dependencies: ["CTrackingSupport", "TrackingMacros"]
    ),
    .macro(
      name: "TrackingMacros",
      dependencies: [
        .product(name: "SwiftSyntax", package: "swift-syntax"),
        .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
        .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
        .product(name: "SwiftDiagnostics", package: "swift-syntax"),
      ]
    ),
    // Continuous observation: transactional sequences, callbacks, value streams, derived values.
    .target(name: "ContinuousTracking", dependencies: ["Tracking"]),
    // Helpers for users' tests: await the next change, assert no change.
    .target(name: "TrackingTesting", dependencies: ["Tracking"]),
    .executableTarget(
      name: "TrackingTour",
      dependencies: [
        "Tracking", "ContinuousTracking", "TrackingRenderLoop", "TrackingCombine", "TrackingPersistence",
        .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
        .product(
          name: "OpenCombine", package: "OpenCombine",
          condition: .when(platforms: [.linux, .windows, .android, .wasi, .openbsd])),
      ]
    ),
    .testTarget(name: "TrackingTests", dependencies: ["Tracking"]),
    .testTarget(
      name: "ContinuousTrackingTests",
      dependencies: [
        "ContinuousTracking", "TrackingTesting",
        .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
        .product(name: "Clocks", package: "swift-clocks"),
      ]
    ),
    .testTarget(
      name: "TrackingMacrosTests",
      dependencies: [
        "TrackingMacros",
        .product(name: "MacroTesting", package: "swift-macro-testing"),
        .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
      ]
    ),
    // BEGIN bridge targets (issue 9)
    // Combine on Apple systems, OpenCombine elsewhere: one source, a conditional import.
    .target(
      name: "TrackingCombine",
      dependencies: [
        "Tracking", "ContinuousTracking",
        .product(
          name: "OpenCombine", package: "OpenCombine",
          condition: .when(platforms: [.linux, .windows, .android, .wasi, .openbsd])),
      ]
    ),
    .target(name: "TrackingRenderLoop", dependencies: ["Tracking"]),
    .testTarget(
      name: "TrackingCombineTests",
      dependencies: [
        "TrackingCombine", "TrackingRenderLoop",
        .product(
          name: "OpenCombine", package: "OpenCombine",
          condition: .when(platforms: [.linux, .windows, .android, .wasi, .openbsd])),
      ]
    ),
    // END bridge targets
    // BEGIN persistence targets (issue 7)
    .target(
      name: "TrackingPersistence",
      dependencies: [
        "Tracking", "ContinuousTracking",
        .product(name: "GRDB", package: "GRDB.swift"),
      ]
    ),
    .testTarget(name: "TrackingPersistenceTests", dependencies: ["TrackingPersistence"]),
    // END persistence targets
    // BEGIN state targets (issue 8)
    // Value-type state observed per property path (struct macro + store).
    .target(name: "TrackingState", dependencies: ["Tracking", "TrackingMacros"]),
    // Reports tracked reads made outside tracking in regions that require it.
    .target(
      name: "TrackingDiagnostics",
      dependencies: ["Tracking", .product(name: "IssueReporting", package: "xctest-dynamic-overlay")]
    ),
    // Two-way bindings to tracked properties; SwiftUI.Binding where SwiftUI exists.
    .target(name: "TrackingBindings", dependencies: ["Tracking"]),
    .testTarget(
      name: "TrackingStateTests",
      dependencies: [
        "TrackingState", "TrackingDiagnostics", "TrackingBindings", "TrackingMacros",
        .product(name: "MacroTesting", package: "swift-macro-testing"),
        .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
      ]
    ),
    // END state targets
    // BEGIN migration targets
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
    .executableTarget(
      name: "TrackingMigrate",
      dependencies: [
        "TrackingMigration",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .testTarget(
      name: "TrackingMigrationTests",
      dependencies: ["TrackingMigration"],
      // Fixtures are Swift sources read as text (located via #filePath), not compiled.
      exclude: ["Fixtures"]
    ),
    // END migration targets
  ],
  swiftLanguageModes: [.v6]
)
