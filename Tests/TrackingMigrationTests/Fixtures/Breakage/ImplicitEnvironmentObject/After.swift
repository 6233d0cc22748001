import SwiftUI
import Tracking

@Trackable final class Session {
    static let shared = Session()
    var user = ""
}

@Trackable final class Preferences {
    static let shared = Preferences()
    var compact = false
}

struct Router: View {
    var body: some View {
        withEnvironments(Text("Home"))
    }

    func withEnvironments(_ content: some View) -> some View {
        content.environment(Session.shared)
    }
}

extension View {
    /// The objects every screen reads, installed at once.
    func withAppEnvironment() -> some View {
        environment(Session.shared)
            .environment(Preferences.shared)
    }
}
