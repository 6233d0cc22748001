#if canImport(SwiftUI)
  import SwiftUI

  extension Binding {
    /// Creates a SwiftUI binding that reads and writes through `binding`.
    ///
    /// SwiftUI may call the binding's closures from its own context; the tracked
    /// binding is used as is, so call this where the source may be accessed.
    public init(_ binding: TrackedBinding<Value>) {
      let box = UncheckedBinding(binding)
      self.init(get: { box.binding.wrappedValue }, set: { box.binding.wrappedValue = $0 })
    }
  }

  /// Lets a tracked binding be captured by SwiftUI's `Sendable` closures; SwiftUI calls
  /// them on the main actor, where views use their models.
  private struct UncheckedBinding<Value>: @unchecked Sendable {
    let binding: TrackedBinding<Value>
    init(_ binding: TrackedBinding<Value>) { self.binding = binding }
  }
#endif
