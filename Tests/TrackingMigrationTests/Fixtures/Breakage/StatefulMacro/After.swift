import SwiftUI
import Tracking

/// `@Stateful` is a macro of the app's own that adds `@Published var state` and
/// the methods that change it: the tool cannot see those members.
@MainActor
@Stateful
final class FeedLoader: ObservableObject {
    @Published var items: [String] = []
}

/// A class with only attributes the tool knows is migrated as usual.
@Trackable @MainActor
final class Counter {
    var count = 0
}

struct FeedView: View {
    @StateObject private var loader = FeedLoader()
    @State private var counter = Counter()

    var body: some View {
        Text("\(loader.items.count) \(counter.count)")
            .environmentObject(loader)
    }
}
