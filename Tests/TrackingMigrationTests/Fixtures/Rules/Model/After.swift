import Combine
import Foundation
import Tracking
import TrackingCombine

// Settings model.
@Trackable final class Settings: NSObject {
    var volume = 0.5
    private(set) var isMuted = false

    var theme = "light" // user's theme

    @MainActor var lastOpened: Date? = nil
    @TrackingIgnored var cache: [String: Int] = [:]
    @TrackingIgnored lazy var formatter = NumberFormatter()
    @TrackingIgnored var observed: Int = 0 {
        didSet { print(observed) }
    }
    var computed: Int { cache.count }
    static var shared = Settings()
    let name = "settings"
    private var cancellable: AnyCancellable?

    func bind() {
        cancellable = publisher(for: \.volume).prepend(volume).sink { _ in }
        objectWillChange.send()
    }
}

@Trackable class Middle : Identifiable, Sendable {
    var value = 1
}

@Trackable class Plain {
}

@Trackable @MainActor
class Multi:
    Identifiable
{
    var x = 0
}

@Trackable class Derived: Middle {
    var extra = 1
    @TrackingIgnored var plain = 2
}

func observe(_ settings: Settings) {
    _ = settings.$volume
}
