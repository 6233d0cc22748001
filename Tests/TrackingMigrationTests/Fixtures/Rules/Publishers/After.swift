import Combine
import SwiftUI
import Tracking
import TrackingCombine

/// Search with a debounced query, as many view models do.
@Trackable final class SearchModel {
    var query = ""
    var scope = 0
    var results: [String] = []
    private(set) var isFocused = false
    @TrackingIgnored var lastScope = 0
    @TrackingIgnored private var bag = Set<AnyCancellable>()

    init() {
        publisher(for: \.query).prepend(query)
            .removeDuplicates()
            .debounce(for: .milliseconds(300), scheduler: RunLoop.main)
            .sink { [weak self] text in self?.search(text) }
            .store(in: &bag)
        publisher(for: \.scope)
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
    @Bindable var model: SearchModel

    var body: some View {
        TextField("Search", text: $model.query)
            .onReceive(model.publisher(for: \.results).receive(on: RunLoop.main)) { results in
                print(results.count)
            }
            .onReceive(model.$scope) { scope in
                print(scope)
            }
    }
}
