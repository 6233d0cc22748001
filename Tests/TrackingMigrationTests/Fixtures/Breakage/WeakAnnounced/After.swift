import Foundation
import Observation

/// A node of an outline; its parent is announced by hand.
@Observable final class OutlineNode {
    var title = ""
    weak var parent: OutlineNode?
    unowned let root: OutlineNode

    init(root: OutlineNode) {
        self.root = root
    }

    func attach(to node: OutlineNode) {
        parent = node
    }
}
