// "SwiftUI and Apple's Observation": a tracked model in SwiftUI's own observation
// (iOS 17, macOS 14 and later), through its Apple `Observable` conformance.
#if canImport(SwiftUI)
  import SwiftUI
  import Tracking

  /// `@Bindable` over a `@Trackable` model (the article's `ProfileView`).
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  struct ProfileView: View {
    @Bindable var profile: Profile  // a @Trackable class

    var body: some View {
      TextField("Name", text: $profile.name)  // updates when profile.name changes
    }
  }

  /// `.environment(model)` placing a `@Trackable` model for its descendants.
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  struct ProfileScreen: View {
    let profile: Profile

    var body: some View {
      ProfileBadge()
        .environment(profile)
    }
  }

  /// `@Environment(Model.self)` reading it back, and `Bindable(_:)` over it.
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  struct ProfileBadge: View {
    @Environment(Profile.self) private var profile

    var body: some View {
      Text(profile.name)
      Toggle("Public", isOn: Bindable(profile).isPublic)
    }
  }
#endif
