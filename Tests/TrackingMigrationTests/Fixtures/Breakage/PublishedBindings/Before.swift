import Combine

/// A rectangle being dragged: both coordinates in one declaration.
final class Selection: ObservableObject {
    @Published var x = 0.0, y = 0.0
    @Published private(set) var width: Double = 0, height: Double // set by resize(to:)
    var scale = 1.0, angle = 0.0

    init() {
        height = 0
    }
}
