import Foundation
import Observation
import Tracking

@MainActor @Trackable final class ImageAdjustments {
  var brightness = 0.0
  var contrast = 0.0
  var saturation = 0.0
  var useContrast = false
}

@MainActor @Observable final class AppleImageAdjustments {
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
