import Foundation

final class Workspace {}

/// A pane of tabs; saved and restored through the coding in Pane+Coding.swift.
final class Pane: ObservableObject, Identifiable {
    @Published var tabs: [URL] = []
    @Published private(set) var selected: URL?
    weak var workspace: Workspace?
    var id = UUID()

    init(tabs: [URL], selected: URL?, workspace: Workspace?) {
        self.tabs = tabs
        self.selected = selected
        self.workspace = workspace
    }
}
