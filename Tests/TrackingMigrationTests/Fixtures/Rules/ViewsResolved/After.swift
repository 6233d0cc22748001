import SwiftUI
import Tracking

@Trackable @MainActor final class Preferences {
    static let shared = Preferences()
    var accent = "blue"
    var fontScale = 1.0
}

@Trackable final class Session {
    var client = Client()
    var userName = ""
}

@Trackable final class Client {
    var isSignedIn = false
}

@Trackable @MainActor final class Catalog {
    static let shared = Catalog()
    var items: [String] = []
    func store(for name: String) -> ItemStore { ItemStore(name: name) }
}

@Trackable final class ItemStore {
    var quantity = 0
    init(name: String) {}
}

@Trackable final class DetailModel {
    var title = ""

    init(id: Int) {
        Task { await load(id) }
    }

    func load(_ id: Int) async {}
}

@main
struct ShopApp: App {
    @State private var preferences = Preferences.shared
    @State private var session = Session()

    var body: some Scene {
        WindowGroup {
            RootView()
                .environment(preferences)
                .environment(session.client)
                .environment(Catalog.shared)
                .environment(Catalog.shared.store(for: "main"))
        }
    }
}

struct RootView: View {
    @Environment(Preferences.self) private var preferences
    @Environment(Client.self) var client

    var body: some View {
        @Bindable var preferences = preferences
        @Bindable var client = client
        Form {
            TextField("Accent", text: $preferences.accent)
            Toggle("Signed in", isOn: $client.isSignedIn)
        }
    }

    var scaleSlider: some View {
        @Bindable var preferences = preferences
        return Slider(value: $preferences.fontScale)
    }

    func signedInBinding() -> Binding<Bool> { @Bindable var client = client; return $client.isSignedIn }

    private var accountRow: some View {
        @Bindable var preferences = preferences
        @Bindable var client = client
        return HStack {
            TextField("Name", text: $preferences.accent)
            Toggle("On", isOn: $client.isSignedIn)
        }
    }
}

struct DetailView: View {
    @State private var model: DetailModel
    var store: ItemStore

    init(id: Int, store: ItemStore) {
        _model = State(wrappedValue: DetailModel(id: id))
        self.store = store
    }

    var body: some View {
        Text(model.title)
    }
}
