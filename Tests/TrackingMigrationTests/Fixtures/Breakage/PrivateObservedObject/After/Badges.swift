import SwiftUI
import Tracking

@Trackable final class Counter {
    var count = 0
}

/// Each view makes its own counter; callers pass only the title.
struct CounterView: View {
    private let counter = Counter()
    var title: String

    var body: some View {
        Text("\(title): \(counter.count)")
    }
}

struct BadgeView: View {
    fileprivate let counter = Counter()
    let label: String

    var body: some View {
        Text("\(label) \(counter.count)")
    }
}

/// An initializer of its own: the memberwise one does not exist anyway.
struct TallyView: View {
    private var counter = Counter()
    let name: String

    init(name: String) {
        self.name = name
    }

    var body: some View {
        Text("\(name) \(counter.count)")
    }
}
