import SwiftUI

@MainActor final class Preferences: ObservableObject {
    static let shared = Preferences()
    @Published var accent = "blue"
    @Published var fontScale = 1.0
}

final class Session: ObservableObject {
    @Published var client = Client()
    @Published var userName = ""
}

final class Client: ObservableObject {
    @Published var isSignedIn = false
}

@MainActor final class Catalog: ObservableObject {
    static let shared = Catalog()
    @Published var items: [String] = []
    func store(for name: String) -> ItemStore { ItemStore(name: name) }
}

final class ItemStore: ObservableObject {
    @Published var quantity = 0
    init(name: String) {}
}

final class DetailModel: ObservableObject {
    @Published var title = ""

    init(id: Int) {
        Task { await load(id) }
    }

    func load(_ id: Int) async {}
}

@main
struct ShopApp: App {
    @StateObject private var preferences = Preferences.shared
    @StateObject private var session = Session()

    var body: some Scene {
        WindowGroup {
            RootView()
                .environmentObject(preferences)
                .environmentObject(session.client)
                .environmentObject(Catalog.shared)
                .environmentObject(Catalog.shared.store(for: "main"))
        }
    }
}

struct RootView: View {
    @EnvironmentObject private var preferences: Preferences
    @EnvironmentObject var client: Client

    var body: some View {
        Form {
            TextField("Accent", text: $preferences.accent)
            Toggle("Signed in", isOn: $client.isSignedIn)
        }
    }

    var scaleSlider: some View {
        Slider(value: $preferences.fontScale)
    }

    func signedInBinding() -> Binding<Bool> { $client.isSignedIn }

    private var accountRow: some View {
        HStack {
            TextField("Name", text: $preferences.accent)
            Toggle("On", isOn: $client.isSignedIn)
        }
    }
}

struct DetailView: View {
    @StateObject private var model: DetailModel
    @ObservedObject var store: ItemStore

    init(id: Int, store: ItemStore) {
        _model = StateObject(wrappedValue: DetailModel(id: id))
        self._store = ObservedObject(wrappedValue: store)
    }

    var body: some View {
        Text(model.title)
    }
}
