// Not built by this project's CI, which runs on Linux: written against SwiftUI's and
// Combine's documented API (`ObservedObject`, `Binding`, `ObservableObject`) and the
// Swift 6 language mode, and meant to be checked by
// `.github/workflows/apple-platforms.yml` on a macOS runner.
#if canImport(SwiftUI) && canImport(Combine)
  import Combine
  import SwiftUI

  /// Makes SwiftUI bindings to the properties of a ``Trackable()`` model, on every OS
  /// version SwiftUI runs on: what SwiftUI's `@Bindable` does for `Observable` objects
  /// from iOS 17 and macOS 14.
  ///
  /// ```swift
  /// struct ProfileForm: View {
  ///   @BindableModel var profile: Profile     // a @Trackable class
  ///
  ///   var body: some View {
  ///     TrackedView {
  ///       TextField("Name", text: $profile.name)
  ///       Toggle("Public", isOn: $profile.isPublic)
  ///     }
  ///   }
  /// }
  /// ```
  ///
  /// Or, for a model the view does not hold as a property:
  /// `TextField("Name", text: BindableModel(profile).name)`.
  ///
  /// Writes through a binding set the model's property, so they are tracked writes;
  /// the bindings themselves do not make the view update (wrap the content in a
  /// ``TrackedView`` for that). From iOS 17, macOS 14, tvOS 17 and watchOS 10,
  /// SwiftUI's own `@Bindable` accepts tracked models too (they conform to Apple's
  /// `Observable`).
  @MainActor @preconcurrency
  @propertyWrapper
  @dynamicMemberLookup
  public struct BindableModel<Model: Trackable> {
    // An `ObservedObject`'s projection makes bindings that SwiftUI can tell apart by
    // the object and key path they refer to (like its own `@Bindable`'s), rather than
    // by closures. The holder never publishes: it is only a place to bind to.
    @ObservedObject private var holder: BindableModelHolder<Model>

    /// The model.
    public var wrappedValue: Model { holder.model }

    /// The bindable itself: `$profile.name` is a binding to `profile.name`.
    public var projectedValue: BindableModel<Model> { self }

    /// Makes bindings to `wrappedValue`'s properties; the property-wrapper spelling.
    public init(wrappedValue: Model) {
      _holder = ObservedObject(wrappedValue: BindableModelHolder(wrappedValue))
    }

    /// Makes bindings to `model`'s properties.
    public init(_ model: Model) {
      self.init(wrappedValue: model)
    }

    /// A binding to the model's property at `keyPath`.
    public subscript<Value>(dynamicMember keyPath: ReferenceWritableKeyPath<Model, Value>) -> Binding<Value> {
      $holder.model[dynamicMember: keyPath]
    }
  }

  /// Holds the model of a ``BindableModel`` for `ObservedObject`, which needs an
  /// `ObservableObject`. It never announces a change.
  final class BindableModelHolder<Model: AnyObject>: ObservableObject {
    var model: Model
    init(_ model: Model) { self.model = model }
  }
#endif
