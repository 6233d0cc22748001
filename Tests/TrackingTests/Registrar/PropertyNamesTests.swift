import Testing
import Tracking

@Trackable class NamedBase: @unchecked Sendable {
  var first = 0
  var second = ""
  @TrackingIgnored var ignored = 0
  let constant = 1
}

@Trackable final class NamedSub: NamedBase, @unchecked Sendable {
  var third = 0.0
}

@MainActor @Trackable final class NamedOnMain {
  var title = ""
  #if os(Linux) || os(macOS) || os(iOS) || os(Windows)
    var platformSpecific = 0
  #else
    var platformSpecific = 0
  #endif
  var last = 0
}

@Trackable final class NamedWithOwnAccess: @unchecked Sendable {
  var field = 0
  func access<Member>(keyPath: KeyPath<NamedWithOwnAccess, Member>) {
    _$trackingRegistrar.access(self, keyPath: keyPath)
  }
}

/// What generic code (the runtime) sees through the `Trackable` requirement.
func trackedNames<Subject: Trackable>(of type: Subject.Type) -> [String] {
  Subject._$trackedPropertyNames
}

@Suite("_$trackedPropertyNames")
struct PropertyNamesTests {
  @Test func namesAreTheNumberedPropertiesInOrder() {
    #expect(trackedNames(of: NamedBase.self) == ["first", "second"])
  }

  /// A tracked subclass numbers its own properties in its own registrar; through the
  /// requirement, each class reports its own (a subclass overrides the class var).
  @Test func aTrackedSubclassReportsItsOwnProperties() {
    #expect(trackedNames(of: NamedSub.self) == ["third"])
    #expect(trackedNames(of: NamedBase.self) == ["first", "second"])
    let asBase: NamedBase.Type = NamedSub.self
    #expect(asBase._$trackedPropertyNames == ["third"])
  }

  /// Readable from any isolation, though the class is main-actor isolated; members
  /// inside `#if` are numbered once per name.
  @Test func aMainActorClassAnswersFromAnywhere() async {
    let names = await Task.detached { trackedNames(of: NamedOnMain.self) }.value
    #expect(names == ["title", "platformSpecific", "last"])
  }

  /// A class with its own `access` numbers nothing at compile time.
  @Test func aClassWithItsOwnAccessHasNoNumberedNames() {
    #expect(trackedNames(of: NamedWithOwnAccess.self).isEmpty)
  }

  @Test func aHandWrittenConformanceHasNone() {
    #expect(trackedNames(of: HandWrittenTrackable.self).isEmpty)
  }
}

final class HandWrittenTrackable: Trackable {}
