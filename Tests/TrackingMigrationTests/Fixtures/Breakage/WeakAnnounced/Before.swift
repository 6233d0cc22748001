import Foundation

/// A node of an outline; its parent is announced by hand.
final class OutlineNode: ObservableObject {
    @Published var title = ""
    weak var parent: OutlineNode?
    unowned let root: OutlineNode

    init(root: OutlineNode) {
        self.root = root
    }

    func attach(to node: OutlineNode) {
        parent = node
        objectWillChange.send()
    }
}
