import Combine
import SwiftUI
import Tracking

/// A download queue whose counters are announced by hand.
@Trackable final class DownloadQueue {
    var items: [String] = []
    var completed = 0
    var failed = 0 // announced by finish() and fail()
    var speed: Double = 0
    var label = "" {
        didSet {
            print(label)
        }
    }
    @TrackingIgnored @AppStorage("downloads.parallel") private var _parallel: Int = 2
    var parallel: Int {
        get {
            access(keyPath: \.parallel)
            return _parallel
        }
        set {
            withMutation(keyPath: \.parallel) { _parallel = newValue }
        }
    }
    @TrackingIgnored @AppStorage("downloads.wifiOnly") private var _wifiOnly: Bool = true
    var wifiOnly: Bool {
        get {
            access(keyPath: \.wifiOnly)
            return _wifiOnly
        }
        set {
            withMutation(keyPath: \.wifiOnly) { _wifiOnly = newValue }
        }
    }
    @TrackingIgnored var scratch = [Int]()
    @TrackingIgnored private var timer: Timer?
    @TrackingIgnored private var attempts: Int

    init() {
        attempts = 0
    }

    func finish(_ name: String) {
        completed += 1
        items.removeAll { $0 == name }
    }

    func fail() {
        failed += 1
        Log.write("download failed")
        objectWillChange.send()
    }
}

/// Forwards the changes of a child model, a common ObservableObject idiom.
@Trackable final class Dashboard {
    let queue = DownloadQueue()

    init() {
    }
}
