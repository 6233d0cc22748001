import SwiftUI
import AnalyticsKit

struct SessionView: View {
    @Environment(Session.self) var session
    @Bindable var admin: AdminSession
    // Declared in AnalyticsKit, which the tool cannot see.
    @EnvironmentObject var tracker: AnalyticsTracker

    var body: some View {
        Text(session.user ?? "Signed out")
    }
}
