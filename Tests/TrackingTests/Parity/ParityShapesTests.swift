import Foundation
import Testing
import Tracking

// The rest of the shapes Apple's `Observable.swift` test declares, with `@Trackable`:
// they must compile, conform, and track.

@Trackable final class ContainsNothing {}

class NotTracked {}
@Trackable class InheritsFromNotTracked: NotTracked {
  var field = 1
}

protocol SomeProtocol {}
@Trackable final class ConformsToAnotherProtocol: SomeProtocol {
  var field = 1
}

struct NotTrackedContainer {
  @Trackable final class Contents: @unchecked Sendable {
    var field = 3
  }
}

@Trackable final class SendableModel: @unchecked Sendable {
  var field = 3
}

@Trackable final class CodableModel: Codable {
  var field = 3
}

@Trackable final class HashableModel {
  var field = 3
}

extension HashableModel: Hashable {
  static func == (lhs: HashableModel, rhs: HashableModel) -> Bool { lhs.field == rhs.field }
  func hash(into hasher: inout Hasher) { hasher.combine(field) }
}

@Trackable final class IsolatedProperty: @unchecked Sendable {
  @MainActor var title = "hello"
}

/// Apple's `ObservableAvailabilityCycle` tests: availability on the class is copied
/// onto the generated conformances (on Linux the platforms' versions are not
/// enforced, so this checks that the expansion compiles).
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
@Trackable final class AvailabilityAnnotated {
  var field = 0
}

@Trackable
#if DEBUG
  @available(*, deprecated, message: "only a test")
#endif
final class AvailabilityInsideIfConfig {
  var field = 0
}

@Suite("Parity with Apple's @Observable: the other shapes of its test")
struct ParityShapesTests {
  @Test func everyShapeConforms() {
    func isTrackable<T: Trackable>(_: T) -> Bool { true }
    #expect(isTrackable(ContainsNothing()))
    #expect(isTrackable(InheritsFromNotTracked()))
    #expect(isTrackable(ConformsToAnotherProtocol()))
    #expect(isTrackable(NotTrackedContainer.Contents()))
    #expect(isTrackable(SendableModel()))
    #expect(isTrackable(HashableModel()))
    #expect(isTrackable(AvailabilityAnnotated()))
  }

  @Test func aNestedClassIsTracked() {
    let contents = NotTrackedContainer.Contents()
    let events = Events()
    withTracking { _ = contents.field } onChange: { events("field") }
    contents.field = 4
    #expect(events.all == ["field"])
  }

  @Test func aCodableClassRoundTripsUnderItsPropertyNames() throws {
    let model = CodableModel()
    model.field = 9
    let data = try JSONEncoder().encode(model)
    #expect(String(decoding: data, as: UTF8.self) == #"{"field":9}"#)
    #expect(try JSONDecoder().decode(CodableModel.self, from: data).field == 9)
  }

  @Test func aHashableClassKeepsItsOwnEquality() {
    let a = HashableModel()
    let b = HashableModel()
    #expect(a == b)
    b.field = 4
    #expect(a != b)
    #expect(Set([a, b]).count == 2)
  }

  @MainActor @Test func aMainActorPropertyIsTracked() {
    let model = IsolatedProperty()
    let events = Events()
    withTracking { _ = model.title } onChange: { events("title") }
    model.title = "c"
    #expect(events.all == ["title"])
  }
}
