import Foundation
import Observation
import Tracking

/// The actor the models and most tests are isolated to, standing in for the main
/// actor of an app. Not `@MainActor` itself: on Linux the main actor runs on the
/// main dispatch queue, and under Swift Testing's parallel execution that queue was
/// seen to stop draining now and then (every in-flight main-actor test hung, no
/// thread left running; reproduced with the code of 107d07b too). A global actor
/// of our own gives the same isolation semantics without depending on it.
@globalActor actor UIActor {
  static let shared = UIActor()
}

@UIActor @Trackable final class ImageAdjustments {
  var brightness = 0.0
  var contrast = 0.0
  var saturation = 0.0
  var useContrast = false
}

@UIActor @Observable final class AppleImageAdjustments {
  var brightness = 0.0
  var contrast = 0.0
  var saturation = 0.0
  var useContrast = false
}

@Trackable final class Meter: @unchecked Sendable {
  var level = 0
  var name = "meter"
}

/// A thread-safe list of received values.
final class Received<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var storage: [Value] = []
  func append(_ value: Value) { lock.withLock { storage.append(value) } }
  var values: [Value] { lock.withLock { storage } }
}

final class Witness: @unchecked Sendable {}
