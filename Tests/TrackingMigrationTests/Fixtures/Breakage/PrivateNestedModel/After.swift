import SwiftUI
import Tracking

/// A model private to its view (codeapp's RemoteImage.Loader): neither macro can make it
/// observable there, so it stays an ObservableObject, with a warning, and so does the
/// view's wrapper of it.
struct RemoteImage: View {
    private enum LoadState {
        case loading, loaded
    }

    private class Loader: ObservableObject {
        @Published var state = LoadState.loading
    }

    @StateObject private var loader = Loader()

    var body: some View {
        Text(loader.state == .loading ? "…" : "done")
    }
}

/// The same model at file scope, private to the file: migrated as usual.
@Trackable private final class FileLoader {
    var done = false
}

struct FileImage: View {
    @State private var loader = FileLoader()

    var body: some View {
        Text(loader.done ? "done" : "…")
    }
}
