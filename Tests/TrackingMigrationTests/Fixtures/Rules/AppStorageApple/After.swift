import SwiftUI

@Observable final class ReaderSettings {
    @ObservationIgnored @AppStorage("reader.fontSize") private var _fontSize: Double = 14
    var fontSize: Double {
        get {
            access(keyPath: \.fontSize)
            return _fontSize
        }
        set {
            withMutation(keyPath: \.fontSize) { _fontSize = newValue }
        }
    }
    @ObservationIgnored @AppStorage("reader.theme") private var _theme: String = "sepia" {
        didSet { applyTheme() }
    }
    private(set) var theme: String {
        get {
            access(keyPath: \.theme)
            return _theme
        }
        set {
            withMutation(keyPath: \.theme) { _theme = newValue }
        }
    }
    @ObservationIgnored @AppStorage("reader.lastBook") private var _lastBook: String?
    var lastBook: String? {
        get {
            access(keyPath: \.lastBook)
            return _lastBook
        }
        set {
            withMutation(keyPath: \.lastBook) { _lastBook = newValue }
        }
    }

    func applyTheme() {}
}
