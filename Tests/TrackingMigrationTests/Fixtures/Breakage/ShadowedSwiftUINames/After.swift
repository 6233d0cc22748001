import SwiftUI
import Tracking

/// The app's own type named like SwiftUI's `Environment` (XcodesApp has one): inside
/// this module `@Environment(…)` would name it, so the tool writes `@SwiftUI.Environment`.
public struct Environment: Sendable {
    public var now: @Sendable () -> Int = { 0 }
}

@Trackable final class Updater {
    var canCheck = false
}

struct UpdatesPane: View {
    @SwiftUI.Environment(Updater.self) var updater

    var body: some View {
        @Bindable var updater = updater
        Toggle("Check", isOn: $updater.canCheck)
    }
}

/// A view with a member type named `State`: there `@State` would name the enum.
struct LoaderView: View {
    enum State {
        case idle, loading
    }

    @SwiftUI.State private var updater = Updater()
    @Bindable var other: Updater
    var phase = State.idle

    var body: some View {
        Toggle("Other", isOn: $other.canCheck)
    }
}

/// No type of these names around: plain attributes.
struct PlainView: View {
    @State private var updater = Updater()

    var body: some View {
        Text(updater.canCheck ? "yes" : "no")
    }
}
