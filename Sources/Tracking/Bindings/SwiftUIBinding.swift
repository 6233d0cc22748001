#if canImport(SwiftUI)
  import SwiftUI

  extension Binding {
    /// Creates a SwiftUI binding that reads and writes through `binding`.
    ///
    /// SwiftUI may call the binding's closures from its own context; the tracked
    /// binding is used as is, so call this where the source may be accessed.
    public init(_ binding: TrackedBinding<Value>) {
      // SwiftUI calls these closures on the main actor, where views use their models.
      let box = UncheckedSendable(binding)
      self.init(get: { box.value.wrappedValue }, set: { box.value.wrappedValue = $0 })
    }
  }
#endif
