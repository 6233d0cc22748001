// `TrackedView` and `@BindableModel`: SwiftUI on every OS version it runs on, as in
// their documentation and "SwiftUI and Apple's Observation" ("Older OS versions").
#if canImport(SwiftUI)
  import SwiftUI
  import Tracking

  /// `TrackedView`'s documentation example.
  struct ScoreView: View {
    let player: Player  // a @Trackable class

    var body: some View {
      TrackedView {
        Text("\(player.name): \(player.score)")
      }
    }
  }

  /// The article's `ProfileForm`: `@BindableModel` bindings inside a `TrackedView`.
  struct ProfileForm: View {
    @BindableModel var profile: Profile

    var body: some View {
      TrackedView {
        Form {
          TextField("Name", text: $profile.name)
          Text("\(profile.name.count) characters")
        }
      }
    }
  }

  /// `BindableModel`'s documentation example, with a toggle.
  struct ProfileToggles: View {
    @BindableModel var profile: Profile

    var body: some View {
      TrackedView {
        TextField("Name", text: $profile.name)
        Toggle("Public", isOn: $profile.isPublic)
      }
    }
  }

  /// `BindableModel(model)` for a model the view does not hold as a property.
  struct ProfileNameField: View {
    let profile: Profile

    var body: some View {
      TextField("Name", text: BindableModel(profile).name)
    }
  }
#endif
