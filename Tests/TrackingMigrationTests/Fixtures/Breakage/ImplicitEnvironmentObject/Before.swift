import SwiftUI

final class Session: ObservableObject {
    static let shared = Session()
    @Published var user = ""
}

final class Preferences: ObservableObject {
    static let shared = Preferences()
    @Published var compact = false
}

struct Router: View {
    var body: some View {
        withEnvironments(Text("Home"))
    }

    func withEnvironments(_ content: some View) -> some View {
        content.environmentObject(Session.shared)
    }
}

extension View {
    /// The objects every screen reads, installed at once.
    func withAppEnvironment() -> some View {
        environmentObject(Session.shared)
            .environmentObject(Preferences.shared)
    }
}
