#if canImport(Combine) || OpenCombine
import Foundation
@_spi(Testing) import Tracking

#if canImport(Combine)
  import Combine
#else
  import OpenCombine
#endif

@Trackable final class Scene: @unchecked Sendable {
  var title = "title"
  var count = 0
  var showsDetail = false
  var detail = "detail"
  var child: Node?
  /// The number of trackings installed on this object, pending or not yet swept.
  var observerCount: Int { _$trackingRegistrar.installedObserverCount }
}

@Trackable final class Node: @unchecked Sendable {
  var name: String
  init(name: String) { self.name = name }
}

/// A legacy model: Combine's `ObservableObject` with `@Published` properties.
final class LegacyModel: ObservableObject, @unchecked Sendable {
  @Published var name = "legacy"
  @Published var count = 0
}

/// A thread-safe list of received values.
final class Received<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var storage: [Value] = []
  func append(_ value: Value) { lock.withLock { storage.append(value) } }
  var values: [Value] { lock.withLock { storage } }
}

/// An object whose lifetime a test checks with a weak reference.
final class Witness: @unchecked Sendable {}
#endif
