import Combine
import SwiftUI

enum SortOrder: String {
    case date, name
}

/// Three kinds of manual work the first run reports and leaves in the code.
final class SearchModel: ObservableObject {
    @Published var query = ""
    @Published var results: [String] = []
    @AppStorage("search.sort") var sort = SortOrder.date
    private var bag = Set<AnyCancellable>()

    init() {
        // The transform runs before the value is stored with @Published: reported.
        $query.map { $0.lowercased() }.sink { [weak self] in self?.search($0) }.store(in: &bag)
        // Starts work in init, and views hold it in @State after migration: reported.
        Task { await self.warmUp() }
    }

    func search(_ text: String) {}
    func warmUp() async {}
}

struct SearchView: View {
    @StateObject private var model = SearchModel()

    var body: some View {
        Text(model.query)
    }
}
