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

/// The same two kinds through forms a second run must also recognize: `.init(wrappedValue:)`
/// for the wrapper, and a publisher of an object whose type the tool cannot determine.
struct ResultsBadge: View {
    @StateObject private var model: SearchModel

    init() {
        _model = .init(wrappedValue: SearchModel())
    }

    var body: some View {
        Text("\(model.results.count)")
            .onReceive(Registry.current().$results) { print($0) }
    }
}

/// A class the tool keeps as it is (`@Stateful` may generate `@Published` members) with a
/// property of the same name as `SearchModel.results`: after the first run, `$results`
/// above could be either, and the second run reports it again, as the first did.
@Stateful
final class ResultsCache: ObservableObject {
    @Published var results: [String] = []
}
