import Foundation
import Testing

@testable import TrackingMigration

/// Compiles fixtures before and after migration and checks the tool's promise: every
/// site is turned into code that builds, or reported. So each compiler error that
/// migration adds must fall on a line where the migration reported a warning or an
/// error (see ``DifferentialTypeCheck`` and ``TypeChecker``, which say what the code is
/// checked against: `SwiftUI` is a stand-in, so this checks the shape of the code, not
/// SwiftUI's behaviour). Runs on Linux with the package's debug build
/// (`swift build --build-tests --enable-all-traits`).
@Suite("Migrated code type-checks", .enabled(if: TypeChecker.isAvailable, "needs Linux, swiftc and the debug build with all traits"))
struct TypeCheckTests {
  static let apple = [
    "BookReader/Before", "Rules/CodableApple/Before.swift", "Rules/AppStorageApple/Before.swift",
    "Rules/AppleImports/Before.swift", "Breakage/CodableInExtension/Before", "Breakage/StorageBinding/Before.swift",
    "Breakage/WeakAnnounced/Before.swift", "Breakage/Cosmetics/Before.swift", "Breakage/SecondRun/Before.swift",
    "Breakage/PrivateNestedModel/Before.swift",
  ]
  static let tracking = [
    "BookReader/Before", "MultiFile/Before", "Rules/ProtocolsAndInits/Before.swift",
    "Rules/ConditionalMembers/Before.swift", "Rules/InheritanceComments/Before.swift", "Rules/ViewsResolved/Before.swift",
    "Rules/Model/Before.swift", "Rules/AnnouncedChanges/Before.swift", "Rules/Publishers/Before.swift",
    "Breakage/AppStorageTracked/Before.swift", "Breakage/PrivateObservedObject/Before",
    "Breakage/StorageBinding/Before.swift", "Breakage/ImplicitEnvironmentObject/Before.swift",
    "Breakage/PublishedBindings/Before.swift", "Breakage/SecondRun/Before.swift",
    "Breakage/ShadowedSwiftUINames/Before.swift", "Breakage/PrivateNestedModel/Before.swift",
  ]

  private func expectNoUnreportedErrors(_ fixture: String, _ target: MigrationTarget) async throws {
    let report = try await TypeChecker.offThePool {
      try DifferentialTypeCheck.run(try Fixtures.sources(of: fixture), target: target)
    }
    #expect(report.unreported.isEmpty, "\(fixture): errors that migration added on lines it did not report:\n\(report.unreported.map(\.description).joined(separator: "\n"))\n\(report.output)")
  }

  @Test("--target apple: migration adds errors only where it reported", arguments: apple)
  func appleTarget(fixture: String) async throws {
    try await expectNoUnreportedErrors(fixture, .apple)
  }

  @Test("--target tracking: migration adds errors only where it reported", arguments: tracking)
  func trackingTarget(fixture: String) async throws {
    try await expectNoUnreportedErrors(fixture, .tracking)
  }

  @Test("The fixtures that are valid Swift type-check before migration, and after it where nothing was reported")
  func cleanFixtures() async throws {
    for fixture in [
      "Breakage/PrivateObservedObject/Before", "Breakage/StorageBinding/Before.swift",
      "Breakage/ShadowedSwiftUINames/Before.swift", "Breakage/PrivateNestedModel/Before.swift",
    ] {
      for target in MigrationTarget.allCases {
        let report = try await TypeChecker.offThePool {
          try DifferentialTypeCheck.run(try Fixtures.sources(of: fixture), target: target)
        }
        #expect(report.before.isEmpty, "\(fixture) before: \(report.before)")
        #expect(report.after.isEmpty, "\(fixture) after, \(target): \(report.after)\n\(report.output)")
      }
    }
  }

  @Test("The check can fail: an unreported @Bindable over a class that is not Observable is an error")
  func checkCanFail() async throws {
    let source = "import SwiftUI\nfinal class Plain { var x = 0 }\nstruct V: View {\n    @Bindable var plain: Plain\n    var body: some View { Text(\"\") }\n}\n"
    let outcome = try await TypeChecker.offThePool { try TypeChecker.typeCheck(sources: ["V.swift": source]) }
    #expect(outcome.errorLines == ["V.swift": [4]], "\(outcome.output)")
  }

  @Test("A model that imports only Foundation (or a submodule of it), or only UIKit, is an ObservableObject with @Published properties, as on Apple's SDKs")
  func foundationBringsObservableObject() async throws {
    let model = "import Foundation // the model\nfinal class M: ObservableObject { @Published var x = 0 }\n"
    let uikitModel = "import UIKit\nfinal class N: ObservableObject { @Published var y = 0 }\nfunc f(_ object: NSObject) {}\n"
    let view = "import SwiftUI\nstruct V: View {\n    @ObservedObject var m: M\n    @ObservedObject var n: N\n    var body: some View { Text(\"\\(m.x) \\(n.y)\") }\n}\n"
    let outcome = try await TypeChecker.offThePool {
      try TypeChecker.typeCheck(sources: ["M.swift": model, "N.swift": uikitModel, "V.swift": view])
    }
    #expect(outcome.errors.isEmpty, "\(outcome.output)")
    // A submodule, which Linux's Foundation does not have, imports Foundation.
    let submodule = "import Foundation.NSDate\nfinal class D: ObservableObject { @Published var date = Date() }\n"
    let date = try await TypeChecker.offThePool { try TypeChecker.typeCheck(sources: ["D.swift": submodule]) }
    #expect(date.errors.isEmpty, "\(date.output)")
    // Combine itself is not brought: only the two names.
    let other = "import Foundation\nlet bag = Set<AnyCancellable>()\n"
    let missing = try await TypeChecker.offThePool { try TypeChecker.typeCheck(sources: ["O.swift": other]) }
    #expect(missing.errorLines == ["O.swift": [2]], "\(missing.output)")
  }

  @Test("An error the migration adds is unreported unless a warning names its line; old errors are not counted")
  func differentialCounts() async throws {
    // Line 3 refers to a module that is not there, before and after: an old error.
    let original = "import SwiftUI\nfinal class M: ObservableObject { @Published var x = 0 }\nlet missing = Missing()\nlet y = M().x\n"
    // A pretend migration that breaks line 4 (M has no `z`) and says nothing.
    let broken = original.replacingOccurrences(of: "M().x", with: "M().z")
    let file = FileOutcome(path: "M.swift", original: original, migrated: broken, isParsed: true)
    let silent = try await TypeChecker.offThePool { try DifferentialTypeCheck.compare(MigrationResult(files: [file], findings: [])) }
    #expect(silent.before.map(\.line) == [3])
    #expect(silent.unreported.map(\.line) == [4], "\(silent.output)")
    let warning = Finding(file: "M.swift", line: 4, column: 9, severity: .warning, rule: .unknownType, message: "")
    let named = try await TypeChecker.offThePool {
      try DifferentialTypeCheck.compare(MigrationResult(files: [file], findings: [warning]))
    }
    #expect(named.unreported.isEmpty)
    #expect(named.reported.map(\.line) == [4])
  }

  @Test("A name missing before migration is unchecked where a new declaration names it too; a newly missing name is not")
  func namesMissingBefore() async throws {
    // `Missing` is not there before or after; the pretend migration adds a declaration
    // of that type (line 2) and one of a type that was found before (line 3, broken).
    let original = "final class Here {}\nfinal class There {}\nlet a: Missing? = nil\n"
    let migrated = "final class Here {}\nvar b: Missing? { nil }\nvar c: Gone? { nil }\nfinal class There {}\nlet a: Missing? = nil\n"
    let file = FileOutcome(path: "M.swift", original: original, migrated: migrated, isParsed: true)
    let report = try await TypeChecker.offThePool { try DifferentialTypeCheck.compare(MigrationResult(files: [file], findings: [])) }
    #expect(report.unchecked.map(\.line) == [2], "\(report.output)")
    #expect(report.unreported.map(\.line) == [3], "\(report.output)")
  }

  @Test("A new error in a body that had other errors before is unchecked, not unreported")
  func errorsInABodyThatHadErrors() async throws {
    // Line 4 is an error before and after; the pretend migration breaks line 5, in the same function.
    let original = "final class M { var x = 0 }\nfunc f() {\n    let m = M()\n    _ = Missing()\n    _ = m.x\n}\nfunc g() { _ = M().x }\n"
    let broken = original.replacingOccurrences(of: "_ = m.x", with: "_ = m.z").replacingOccurrences(of: "M().x", with: "M().z")
    let file = FileOutcome(path: "M.swift", original: original, migrated: broken, isParsed: true)
    let report = try await TypeChecker.offThePool { try DifferentialTypeCheck.compare(MigrationResult(files: [file], findings: [])) }
    #expect(report.before.map(\.line) == [4])
    #expect(report.unchecked.map(\.line) == [5], "\(report.output)")
    // g() had no error before: its new one is unreported.
    #expect(report.unreported.map(\.line) == [7])
  }
}
