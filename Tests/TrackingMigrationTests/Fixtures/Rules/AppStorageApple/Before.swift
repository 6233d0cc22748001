import SwiftUI

final class ReaderSettings: ObservableObject {
    @AppStorage("reader.fontSize") var fontSize: Double = 14
    @AppStorage("reader.theme") private(set) var theme = "sepia" {
        didSet { applyTheme() }
    }
    @AppStorage("reader.lastBook") var lastBook: String?

    func applyTheme() {}
}
