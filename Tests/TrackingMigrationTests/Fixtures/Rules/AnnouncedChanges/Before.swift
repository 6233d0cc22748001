import Combine
import SwiftUI

/// A download queue whose counters are announced by hand.
final class DownloadQueue: ObservableObject {
    @Published var items: [String] = []
    var completed = 0, failed = 0 // announced by finish() and fail()
    var speed: Double = 0 {
        willSet { objectWillChange.send() }
    }
    var label = "" {
        didSet {
            objectWillChange.send()
            print(label)
        }
    }
    @AppStorage("downloads.parallel") var parallel = 2 {
        willSet { objectWillChange.send() }
    }
    @AppStorage("downloads.wifiOnly") var wifiOnly = true
    var scratch = [Int]()
    private var timer: Timer?, attempts: Int

    init() {
        attempts = 0
    }

    func finish(_ name: String) {
        completed += 1
        items.removeAll { $0 == name }
        objectWillChange.send()
    }

    func fail() {
        failed += 1
        Log.write("download failed")
        objectWillChange.send()
    }
}

/// Forwards the changes of a child model, a common ObservableObject idiom.
final class Dashboard: ObservableObject {
    let queue = DownloadQueue()
    private var forwarding: AnyCancellable?

    init() {
        forwarding = queue.objectWillChange.sink { [weak self] _ in
            self?.objectWillChange.send()
        }
    }
}
