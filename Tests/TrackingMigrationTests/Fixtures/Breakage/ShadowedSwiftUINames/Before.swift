import SwiftUI

/// The app's own type named like SwiftUI's `Environment` (XcodesApp has one): inside
/// this module `@Environment(…)` would name it, so the tool writes `@SwiftUI.Environment`.
public struct Environment: Sendable {
    public var now: @Sendable () -> Int = { 0 }
}

final class Updater: ObservableObject {
    @Published var canCheck = false
}

struct UpdatesPane: View {
    @EnvironmentObject var updater: Updater

    var body: some View {
        Toggle("Check", isOn: $updater.canCheck)
    }
}

/// A view with a member type named `State`: there `@State` would name the enum.
struct LoaderView: View {
    enum State {
        case idle, loading
    }

    @StateObject private var updater = Updater()
    @ObservedObject var other: Updater
    var phase = State.idle

    var body: some View {
        Toggle("Other", isOn: $other.canCheck)
    }
}

/// No type of these names around: plain attributes.
struct PlainView: View {
    @StateObject private var updater = Updater()

    var body: some View {
        Text(updater.canCheck ? "yes" : "no")
    }
}
