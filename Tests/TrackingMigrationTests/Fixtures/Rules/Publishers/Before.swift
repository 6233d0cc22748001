import Combine
import SwiftUI

/// Search with a debounced query, as many view models do.
final class SearchModel: ObservableObject {
    @Published var query = ""
    @Published var scope = 0
    @Published var results: [String] = []
    @Published private(set) var isFocused = false
    var lastScope = 0
    private var bag = Set<AnyCancellable>()

    init() {
        $query
            .removeDuplicates()
            .debounce(for: .milliseconds(300), scheduler: RunLoop.main)
            .sink { [weak self] text in self?.search(text) }
            .store(in: &bag)
        $scope
            .dropFirst()
            .map(\.description)
            .sink { [weak self] scope in self?.lastScope = Int(scope) ?? 0 }
            .store(in: &bag)
        $isFocused
            .sink { [weak self] focused in self?.log(focused) }
            .store(in: &bag)
    }

    var queryPublisher: AnyPublisher<String, Never> { $query.eraseToAnyPublisher() }

    func search(_ text: String) {}
    func log(_ value: Bool) {}
}

struct SearchField: View {
    @ObservedObject var model: SearchModel

    var body: some View {
        TextField("Search", text: $model.query)
            .onReceive(model.$results.dropFirst().receive(on: RunLoop.main)) { results in
                print(results.count)
            }
            .onReceive(model.$scope) { scope in
                print(scope)
            }
    }
}
