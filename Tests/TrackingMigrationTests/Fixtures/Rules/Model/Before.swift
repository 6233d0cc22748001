import Combine
import Foundation

// Settings model.
final class Settings: NSObject, ObservableObject {
    @Published var volume = 0.5
    @Published private(set) var isMuted = false

    @Published
    var theme = "light" // user's theme

    @MainActor @Published var lastOpened: Date? = nil
    var cache: [String: Int] = [:]
    lazy var formatter = NumberFormatter()
    var observed: Int = 0 {
        didSet { print(observed) }
    }
    var computed: Int { cache.count }
    static var shared = Settings()
    let name = "settings"
    private var cancellable: AnyCancellable?

    func bind() {
        cancellable = $volume.sink { _ in }
        objectWillChange.send()
    }
}

class Middle : ObservableObject , Identifiable, Sendable {
    @Published var value = 1
}

class Plain: ObservableObject {
}

@MainActor
class Multi:
    ObservableObject,
    Identifiable
{
    @Published var x = 0
}

class Derived: Middle {
    @Published var extra = 1
    var plain = 2
}

func observe(_ settings: Settings) {
    _ = settings.$volume
}
