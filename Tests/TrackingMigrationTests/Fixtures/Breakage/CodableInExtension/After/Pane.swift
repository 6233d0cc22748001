import Foundation
import Observation

final class Workspace {}

/// A pane of tabs; saved and restored through the coding in Pane+Coding.swift.
@Observable final class Pane: Identifiable {
    var tabs: [URL] = []
    private(set) var selected: URL?
    @ObservationIgnored weak var workspace: Workspace?
    @ObservationIgnored var id = UUID()

    init(tabs: [URL], selected: URL?, workspace: Workspace?) {
        self.tabs = tabs
        self.selected = selected
        self.workspace = workspace
    }
}
